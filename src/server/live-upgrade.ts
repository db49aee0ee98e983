// WebSocket upgrades on the mock's port (plain or TLS): the handshake is judged before the socket
// is upgraded (a missing or wrong key, an unknown path or model is an HTTP answer, never an
// upgraded socket that then errs), then the socket is handed to its door. `ws` does the framing.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { atFirstUse } from '../conversation/first-use.js';
import type { Exchange } from '../exchange/exchange.js';
import type { Mock } from '../exchange/mock.js';
import { nextRequestId } from '../exchange/request.js';
import { serveGeminiLive } from './realtime/gemini-live.js';
import { serveOpenAIRealtime } from './realtime/openai-realtime.js';
import { serveResponsesSocket } from './realtime/responses-socket.js';

const KEY_PROTOCOL = 'openai-insecure-api-key.';

function refuse(socket: Duplex, status: number, reason: string, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

function offeredProtocols(request: IncomingMessage): string[] {
  return String(request.headers['sec-websocket-protocol'] ?? '').split(',').map((name) => name.trim()).filter(Boolean);
}

function keyOf(request: IncomingMessage, url: URL): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1]?.trim();
  const offered = offeredProtocols(request).find((name) => name.startsWith(KEY_PROTOCOL))?.slice(KEY_PROTOCOL.length);
  return bearer || offered || url.searchParams.get('key') || (request.headers['x-goog-api-key'] as string | undefined) || undefined;
}

const openaiError = (message: string, type: string, code: string | null, param: string | null = null) => ({ error: { message, type, code, param } });
const googleError = (code: number, message: string, status: string) => ({ error: { code, message, status } });
const OPENAI_REFUSALS = {
  missingKey: openaiError("You didn't provide an API key. Send it as \"Authorization: Bearer KEY\" or the \"openai-insecure-api-key.KEY\" subprotocol.", 'invalid_request_error', 'missing_api_key'),
  wrongKey: openaiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
};

/** A path that opens a socket: its vendor's refusals, the model its URL names, and who serves it once upgraded. */
interface SocketDoor {
  path: RegExp;
  refusals: { missingKey: unknown; wrongKey: unknown };
  /** The model the URL names, checked before the upgrade, and its refusal; a door whose first message names it checks it then. */
  model?: { named(url: URL): string; refused(model: string): unknown };
  serve(mock: Mock, socket: WebSocket, opening: Exchange, model: string): void;
}

const SOCKET_DOORS: readonly SocketDoor[] = [
  {
    path: /^\/v1\/realtime$/,
    refusals: OPENAI_REFUSALS,
    model: {
      named: (url) => url.searchParams.get('model') ?? 'gpt-realtime',
      refused: (model) => openaiError(`Invalid model: '${model}'. Realtime takes a realtime model (gpt-realtime, gpt-realtime-mini).`, 'invalid_request_error', 'model_not_found', 'model'),
    },
    serve: serveOpenAIRealtime,
  },
  {
    // The Responses API over WebSocket, as the openai SDK's ResponsesWS opens it (each response.create names its model).
    path: /^\/v1\/responses$/,
    refusals: OPENAI_REFUSALS,
    serve: (mock, socket, opening) => serveResponsesSocket(mock, socket, opening),
  },
  {
    // Gemini Live, as @google/genai's live.connect opens it (the model comes in its `setup`).
    path: /^\/ws\/google\.ai\.generativelanguage\.v1(alpha|beta)\.GenerativeService\.BidiGenerateContent$/,
    refusals: {
      missingKey: googleError(401, 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.', 'UNAUTHENTICATED'),
      wrongKey: googleError(401, 'API key not valid. Please pass a valid API key.', 'UNAUTHENTICATED'),
    },
    serve: (mock, socket, opening) => serveGeminiLive(mock, socket, opening),
  },
];

/** ws, loaded with the first socket asked for: most starts never serve one. */
const wsPackage = atFirstUse<typeof import('ws')>('ws');

export function liveUpgrades(mock: Mock) {
  let made: WebSocketServer | undefined;
  // An offered `realtime` subprotocol is selected, as browsers require an answer naming one.
  const sockets = () => (made ??= new (wsPackage().WebSocketServer)({ noServer: true, handleProtocols: (offered) => (offered.has('realtime') ? 'realtime' : false) }));
  return (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const secure = (request.socket as { encrypted?: boolean }).encrypted === true;
    // @google/genai joins its base URL and path with a doubled slash, which is no protocol-relative URL here.
    const target = (request.url ?? '/').replace(/^\/+/, '/');
    const url = new URL(target, `${secure ? 'https' : 'http'}://${request.headers.host ?? 'localhost'}`);
    const door = SOCKET_DOORS.find((candidate) => candidate.path.test(url.pathname));
    if (!door) return refuse(socket, 404, 'Not Found', openaiError(`Invalid URL (GET ${url.pathname})`, 'invalid_request_error', null));
    const key = keyOf(request, url);
    const keys = mock.store.current.keys;
    if (!key) return refuse(socket, 401, 'Unauthorized', door.refusals.missingKey);
    if (keys && !keys.get(key)) return refuse(socket, 401, 'Unauthorized', door.refusals.wrongKey);
    const model = door.model?.named(url) ?? '';
    const entry = mock.store.current.modelById.get(model);
    if (door.model && entry?.kind !== 'realtime') return refuse(socket, 400, 'Bad Request', door.model.refused(model));
    const headers = request.headers as Record<string, string>;
    const session = mock.sessions.get(headers['x-mock-session']);
    const scenario = headers['x-mock-scenario'] ?? url.searchParams.get('mock_scenario') ?? undefined;
    const opening: Exchange = {
      method: 'GET',
      path: url.pathname,
      params: {},
      query: Object.fromEntries(url.searchParams),
      search: url.search.slice(1),
      headers: { ...headers, ...(scenario && { 'x-mock-scenario': scenario }) },
      body: null,
      bodySize: 0,
      multipart: false,
      uploads: new Map(),
      origin: url.origin,
      session,
      caller: { group: keys?.get(key)?.group, scenario: keys?.get(key)?.scenario },
      requestId: nextRequestId(mock, session.id),
    };
    sockets().handleUpgrade(request, socket, head, (ws) => door.serve(mock, ws, opening, model));
  };
}
