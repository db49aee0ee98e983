// A large body's place among the mock's (SPEC 11, "Memory"; state/large-bodies.ts): it waits for
// the mock and for its turn of the loop (state/event-loop.ts) before a byte of it is read, so the
// bodies waiting stay in their sockets, and holds its place until its request ended. Both request
// paths take their turns here: Koa's body parser (server/body.ts) and the plain hit's.
import type { Mock } from '../exchange/mock.js';
import { turnForBytes } from '../state/event-loop.js';
import { BodiesInFlight, isLarge } from '../state/large-bodies.js';

/** Each mock's large bodies in flight, shared by its paths. */
const inFlightByMock = new WeakMap<Mock, BodiesInFlight>();

function bodiesInFlight(mock: Mock): BodiesInFlight {
  let inFlight = inFlightByMock.get(mock);
  if (!inFlight) inFlightByMock.set(mock, (inFlight = new BodiesInFlight()));
  return inFlight;
}

/** Undefined when a body of `bytes` may be read at once (a small one always), else a promise that settles when it may. */
export function bodyTurn(mock: Mock, bytes: number): Promise<void> | undefined {
  if (!isLarge(bytes)) return undefined;
  const admitted = bodiesInFlight(mock).admit(bytes);
  return admitted ? admitted.then(() => turnForBytes(bytes)) : turnForBytes(bytes);
}

/** Gives back the place of a body of `bytes` whose turn came, once its request ended. */
export function bodyDone(mock: Mock, bytes: number): void {
  if (isLarge(bytes)) bodiesInFlight(mock).release(bytes);
}
