// A model row's work on a request, as both request paths run it: the door named, the key and the
// required headers checked, then the operation in a turn of the loop with time left. Koa's route
// table (router.ts) mounts every row as a chain of these steps; a plain chat hit (plain-hit.ts)
// calls them without Koa, so a start that answers only plain hits builds no Koa and no router.
import { newNotes, type Door } from '../exchange/exchange.js';
import type { Mock } from '../exchange/mock.js';
import { MODEL_ROUTES, type ModelRoute } from '../exchange/model-routes.js';
import { turnForRequest } from '../state/event-loop.js';
import { STYLE_ENTRIES } from '../styles/registry.js';
import { authenticate } from './auth.js';
import { perform } from './exchange.js';
import type { ShellContext } from './shell-context.js';
import type { MockState } from './state.js';
import { requireHeader } from './version-header.js';
import { waitForTurn } from './writer.js';

/** A step that only checks (and notes what it found): a throw is the request's error. */
export type Check = (ctx: ShellContext) => void;

/** Names the door of a route before its key is checked, so that every error speaks its envelope. */
function enterDoor(door: Door): Check {
  return (ctx) => {
    const state = ctx.state as MockState;
    state.door = door;
    state.envelope = door.envelope(ctx);
    state.notes = newNotes(door.style);
  };
}

/**
 * Starts the operation in a turn of the loop with time left (state/event-loop.ts), noting when the
 * request was read (a paced stream's clock starts there: server/pacer.ts). Undefined when it goes
 * on at once, else whether it goes on once its turn came. A client that leaves while its request
 * waits is journaled at once as 499, with no source: its work never starts, so it takes no
 * scenario step and counts as nothing generated.
 */
export function turnOf(ctx: ShellContext): Promise<boolean> | undefined {
  (ctx.state as MockState).readMs = performance.now();
  const turn = turnForRequest();
  return turn && afterTurn(ctx, turn);
}

async function afterTurn(ctx: ShellContext, turn: Promise<void>): Promise<boolean> {
  if (await waitForTurn(ctx, turn)) return true;
  (ctx.state as MockState).notes = newNotes();
  return false;
}

/** A model row's work on a request: its checks in order, its body limit, its operation performed. */
export interface ModelRow {
  route: ModelRoute;
  checks: readonly Check[];
  bodyLimit: number;
  answer: (ctx: ShellContext) => Promise<void>;
}

/** The rows a plain hit may take (server/plain-hit.ts): each chat style's paths without a parameter, by path. */
export type PlainRows = Map<string, ModelRow>;

const CHAT_PATHS = new Set(STYLE_ENTRIES.flatMap((entry) => entry.paths));

/** A row's checks and operation; `auth` is the mock's key check, made once for all rows. */
export function modelRow(mock: Mock, route: ModelRoute, auth: Check): ModelRow {
  return {
    route,
    checks: [enterDoor(route.door), ...(route.auth ? [auth] : []), ...(route.door.requiredHeaders ?? []).map(requireHeader)],
    bodyLimit: Math.min(mock.options.bodyLimitBytes, route.bodyLimit ?? Infinity),
    answer: perform(mock, route),
  };
}

/** Whether a plain hit may take the row: a chat style's JSON POST on a path without a parameter. */
function isPlain(route: ModelRoute): boolean {
  return route.method === 'POST' && route.body === 'json' && !route.path.includes(':') && CHAT_PATHS.has(route.path);
}

/** The rows a plain hit may take, by path. */
export function plainRows(mock: Mock): PlainRows {
  const auth = authenticate(mock);
  return new Map(MODEL_ROUTES.filter(isPlain).map((route) => [route.path, modelRow(mock, route, auth)]));
}
