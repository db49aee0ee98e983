// What every operation takes from a request before its own work: the style's view of it, the
// next deterministic id, and the model it names.
import { failure, invalid, type MockError } from '../conversation/errors.js';
import { hashHex } from '../conversation/random.js';
import type { ModelEntry } from '../config/types.js';
import { unknownModelMessage } from '../config/model-entry.js';
import type { Session } from '../state/session.js';
import type { ChatStyle, StyleInput } from '../styles/style.js';
import type { ChatRequest } from '../conversation/types.js';
import type { Exchange } from './exchange.js';
import type { Mock } from './mock.js';

/** Models a chat style answers: chat models, and image models (which answer with pictures). */
export const CHAT_STYLE_MODELS = ['chat', 'image'] as const;

export function styleInput(exchange: Exchange): StyleInput {
  return { body: exchange.body, query: exchange.query, headers: exchange.headers, params: exchange.params };
}

/** The id a request's `request-id` header carries: from the seed, its session and the mock's request counter. */
export function nextRequestId(mock: Mock, sessionId: string): string {
  return `req_${hashHex(`${mock.options.seed}|${sessionId}|${mock.requestCount++}`, 24)}`;
}

/** Ids derive from the seed, the session and its counter: the same run gives the same ids. */
export function nextId(mock: Mock, session: Session): string {
  return hashHex(`${mock.options.seed}|${session.id}|${session.sequence++}`, 24);
}

function modelNotFound(mock: Mock, id: string, kinds: ReadonlyArray<ModelEntry['kind']>): MockError {
  const known = mock.store.current.models.filter((m) => kinds.includes(m.kind)).map((m) => m.id);
  return failure('model_not_found', `The model '${id}' does not exist or you do not have access to it. ${unknownModelMessage(id, known, kinds[0])}`, { param: 'model' });
}

export function requireModel(mock: Mock, id: string, kinds: ReadonlyArray<ModelEntry['kind']> = ['chat']): ModelEntry {
  const model = mock.store.current.modelById.get(id);
  if (!model || !kinds.includes(model.kind)) throw modelNotFound(mock, id, kinds);
  return model;
}

/**
 * A door's report on a model its catalog does not list (or, under `--strict`, lists past its end
 * of life): the 404 it answers it with (the
 * template decides whether the upstream holds it instead); undefined for a listed model or none.
 */
export function unlisted(mock: Mock, id: string | undefined, kinds: ReadonlyArray<ModelEntry['kind']>): MockError | undefined {
  if (id === undefined) return undefined;
  const model = mock.store.current.modelById.get(id);
  return !model || (mock.options.strict && pastEndOfLife(model, mock.clock.now())) ? modelNotFound(mock, id, kinds) : undefined;
}

/** A model past its end of life still answers (no suite breaks on a date), except under `--strict`. */
function pastEndOfLife(model: ModelEntry, now: number): boolean {
  return model.retiresAt !== undefined && Date.parse(model.retiresAt) <= now;
}

/**
 * The model of a request to a door of one kind (images, videos, audio, embeddings, ...): named,
 * or the first of its kind in the catalog. A model of another kind is the client's mistake (400
 * naming `model`); an unknown one a 404.
 */
export function mediaModel(mock: Mock, id: string | undefined, kind: Exclude<ModelEntry['kind'], 'chat'>): ModelEntry {
  const config = mock.store.current;
  const ofKind = config.models.filter((model) => model.kind === kind);
  if (id === undefined) {
    if (!ofKind[0]) throw invalid(`No ${kind} model is configured, so 'model' cannot be left out.`, 'model');
    return ofKind[0];
  }
  const entry = config.modelById.get(id);
  if (entry && entry.kind !== kind) {
    throw invalid(
      `The model '${id}' is a ${entry.kind} model; this endpoint takes ${kind} models: ${ofKind.map((m) => m.id).join(', ')}.`,
      'model',
      'invalid_model',
    );
  }
  return requireModel(mock, id, [kind]);
}

/** A request naming its model in its provider's own form (a tag, a vendor prefix), named by the catalog's id instead. */
export function catalogued(mock: Mock, style: ChatStyle, request: ChatRequest): ChatRequest {
  const models = mock.store.current.modelById;
  const id = style.models?.catalogId(request.model, (candidate) => models.has(candidate));
  return id === undefined || id === request.model ? request : { ...request, model: id };
}
