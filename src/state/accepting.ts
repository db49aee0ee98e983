// Whether the server is taking in new connections, turn by turn of the event loop. libuv accepts
// one connection a turn (libuv 1.45, its pull request 3696: it relies on the listening socket
// polling ready again), so under a burst of new connections each turn's own work decides how long
// the rest wait in the kernel's accept queue, where no clock of the mock sees them: with a
// request's work (about a millisecond) in every turn, the thousandth connection of a burst waited
// a second or more before the mock knew of it, and that wait was added to its stream's time to
// first token. The request turns (event-loop.ts) hold requests while connections come in, so the
// turns stay short, the queue is taken in, and the wait is counted from the request's reading.

/** A connection accepted in this turn of the loop, and in the turn before. */
let acceptedNow = false;
let acceptedBefore = false;
/** Whether an immediate follows the turns while connections come in. */
let following = false;

/** Runs in each turn's check phase, right after the poll that accepts, while connections come in. */
function turnOver(): void {
  acceptedBefore = acceptedNow;
  acceptedNow = false;
  if (acceptedBefore) setImmediate(turnOver);
  else following = false;
}

/** The server's `connection` listener. */
export function connectionAccepted(): void {
  acceptedNow = true;
  if (following) return;
  following = true;
  setImmediate(turnOver);
}

/**
 * Whether a connection was accepted in this turn of the loop or the one before: more may be
 * waiting to be accepted. A request on a connection accepted alone is read in the turn after its
 * accept, so it is taken as accepting until that turn's check phase.
 */
export function accepting(): boolean {
  return acceptedNow || acceptedBefore;
}
