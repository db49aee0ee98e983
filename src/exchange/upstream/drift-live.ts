// Live drift (`--upstream --drift`): once a relayed answer has gone to the client whole, the mock's
// own answer to the same request is set beside it and compared by shape. The client never waits
// for it: the comparison starts after the relayed body ended, on a later turn of the event loop.
import { JOURNAL_ANSWER_MAX, type Plan } from '../../conversation/plan.js';
import { compareShapes, type ShapedAnswer } from '../../styles/drift-shapes.js';
import type { Exchange } from '../exchange.js';
import type { Mock } from '../mock.js';

/** The headers the HTTP shell puts on every answer of the mock's own (a plan does not carry them). */
const SHELL_HEADERS = ['x-request-id', 'request-id'];

/** A plan the mock made, as the comparison reads it; a binary answer has no shape to compare. */
function shapedPlan(plan: Plan): ShapedAnswer | undefined {
  const headers = { ...plan.headers, ...Object.fromEntries(SHELL_HEADERS.map((name) => [name, 'present'])) };
  if (plan.kind === 'json') return { status: plan.status, headers, body: plan.body };
  if (plan.kind === 'stream') {
    const events = plan.events.map((event) => ({ event: event.event ?? null, data: event.json !== undefined ? JSON.parse(event.json) : event.data }));
    return { status: plan.status, headers, events };
  }
  return undefined;
}

export interface RelayedForDrift {
  plan: Plan & { kind: 'relay' };
  late: Promise<unknown>;
  complete(): boolean;
}

/**
 * After the relayed answer ended, asks `own` for the mock's answer to the same request (undefined
 * when the mock would not answer it itself) and notes what differs in `mock.drift`.
 */
export function compareWhenRelayed(mock: Mock, exchange: Exchange, style: string | null, relayed: RelayedForDrift, own: () => Promise<Plan | undefined>): void {
  const drift = mock.drift;
  if (!drift) return;
  const compare = async (): Promise<void> => {
    if (!relayed.complete()) return;
    const answer = await own();
    const ours = answer && shapedPlan(answer);
    if (!ours) return;
    const { plan } = relayed;
    const findings = compareShapes({ status: plan.status, headers: plan.headers, ...plan.answered(JOURNAL_ANSWER_MAX) }, ours);
    if (findings.length === 0) return;
    const seen = { endpoint: `${exchange.method} ${exchange.path}`, style, time: new Date(mock.clock.now()).toISOString(), example: exchange.requestId };
    for (const row of drift.note(seen, findings)) mock.events.publish('drift', row);
  };
  void relayed.late.then(() =>
    setImmediate(() => {
      compare().catch((error: unknown) => mock.log('error', `drift of ${exchange.method} ${exchange.path} not compared: ${(error as Error).message}`));
    }),
  );
}
