// Keys arrive four ways, on every endpoint; auth runs before anything else about the request.
import type { Context, Next } from 'koa';
import { MockError } from '../conversation/errors.js';
import type { Mock } from '../exchange/mock.js';
import type { MockState } from './state.js';

export function presentedKey(ctx: Context): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'))?.[1]?.trim();
  const key = bearer || ctx.get('x-api-key') || ctx.get('x-goog-api-key') || (typeof ctx.query.key === 'string' ? ctx.query.key : '');
  return key || undefined;
}

export function authenticate(mock: Mock) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const key = presentedKey(ctx);
    if (!key) {
      throw new MockError('unauthorized', 'You didn\'t provide an API key. Send it as "Authorization: Bearer KEY", "x-api-key", "x-goog-api-key" or "?key=".');
    }
    const keys = mock.store.current.keys;
    if (keys) {
      const entry = keys.get(key);
      if (!entry) throw new MockError('unauthorized', 'Incorrect API key provided.');
      const state = ctx.state as MockState;
      state.group = entry.group ?? 'default';
      state.keyScenario = entry.scenario;
    }
    await next();
  };
}
