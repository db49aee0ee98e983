// A small gateway that drifts in known ways: it asks a faithful one (a mock) and changes the
// answer's shape (a new field, a renamed finish reason, a changed type, a dropped field, a new
// stream event), and its values everywhere (ids, times, texts, token counts, request ids), which
// must never be reported. `drifts(body)` chooses which requests drift; the rest pass as they are.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DriftingGateway {
  url: string;
  close(): Promise<void>;
}

type ChatBody = Record<string, unknown> & { choices: Array<Record<string, unknown> & { message: Record<string, unknown> }>; usage: Record<string, number> };

function drifted(path: string, text: string, stream: boolean): string {
  if (stream) {
    return text
      .replace(/(event: message_start\ndata: .*\n\n)/, '$1event: rate_limit_status\ndata: {"type":"rate_limit_status","remaining":3}\n\n')
      .replace(/"text":"[^"]*"/g, '"text":"other words"')
      .replace(/"id":"msg_[^"]*"/, '"id":"msg_other"');
  }
  const body = JSON.parse(text) as ChatBody;
  if (path === '/v1/chat/completions') {
    body.metadata = { region: 'eu' }; // a new field
    for (const choice of body.choices) {
      choice.finish_reason = 'completed'; // a renamed finish reason
      delete choice.logprobs; // a dropped field
      choice.message.content = 'Entirely different words.';
    }
    body.system_fingerprint = null; // a changed type
    body.id = 'chatcmpl-other';
    body.created = (body.created as number) + 1000;
    body.usage.prompt_tokens = body.usage.prompt_tokens! + 7;
    body.usage.completion_tokens = body.usage.completion_tokens! + 11;
  }
  return JSON.stringify(body);
}

export async function startDriftingGateway(faithful: string, drifts: (body: string) => boolean = () => true): Promise<DriftingGateway> {
  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<string, string>;
    const upstream = await fetch(`${faithful}${request.url}`, { method: request.method, headers, body });
    const type = upstream.headers.get('content-type') ?? 'application/json';
    const text = await upstream.text();
    const shown = drifts(body.toString()) ? drifted(request.url!.split('?')[0]!, text, type.startsWith('text/event-stream')) : text;
    response.writeHead(upstream.status, { 'content-type': type, 'x-request-id': `req_other_${Date.now()}`, 'request-id': 'req_other' });
    response.end(shown);
  };
  const server = createServer((request, response) => {
    answer(request, response).catch((error: Error) => response.writeHead(500).end(error.message));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
