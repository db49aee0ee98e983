// What every handler takes from a request before its own work: the style's view of it, the
// next deterministic id, and the model it names.
import type { Context } from 'koa';
import { MockError } from '../conversation/errors.js';
import { hashHex } from '../conversation/random.js';
import type { ModelEntry } from '../config/types.js';
import type { Session } from '../state/session.js';
import type { StyleInput } from '../styles/style.js';
import type { Mock } from './context.js';

export function styleInput(ctx: Context): StyleInput {
  return {
    body: ctx.request.body,
    query: ctx.query as Record<string, string>,
    headers: ctx.headers as Record<string, string>,
    params: (ctx as unknown as { params?: Record<string, string> }).params ?? {},
  };
}

/** Ids derive from the seed, the session and its counter: the same run gives the same ids. */
export function nextId(mock: Mock, session: Session): string {
  return hashHex(`${mock.options.seed}|${session.id}|${session.sequence++}`, 24);
}

export function requireModel(mock: Mock, id: string, kinds: ReadonlyArray<ModelEntry['kind']> = ['chat']): ModelEntry {
  const model = mock.store.current.modelById.get(id);
  if (!model || !kinds.includes(model.kind)) {
    const known = mock.store.current.models.filter((m) => kinds.includes(m.kind)).map((m) => m.id);
    throw new MockError('not_found', `The model '${id}' does not exist or you do not have access to it. Known models: ${known.join(', ')}.`, {
      param: 'model',
      code: 'model_not_found',
    });
  }
  return model;
}
