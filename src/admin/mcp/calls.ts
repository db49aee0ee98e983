// What every tool does around its admin call: an answer that is not a success becomes a tool
// error carrying the admin API's own message, and a session or journal id the mock does not
// hold is refused naming the ones it does.
import type { JournalEntry } from '../../state/journal.js';
import type { AdminCall, AdminClient, AdminMethod } from '../client.js';

/** A failure the model should read and act on: answered as a tool result with `isError`. */
export class ToolError extends Error {}

function adminMessage(body: unknown): string {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  if (typeof error?.message === 'string') return error.message;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** The body of a successful admin call; otherwise a ToolError with the admin API's message. */
export async function ask<T>(admin: AdminClient, method: AdminMethod, path: string, call?: AdminCall): Promise<T> {
  const answer = await admin.call(method, path, call);
  if (answer.status >= 400) throw new ToolError(`${adminMessage(answer.body)} (${method} /__admin${path} answered ${answer.status})`);
  return answer.body as T;
}

function known(what: string, names: readonly string[]): string {
  return names.length > 0 ? `Known ${what}: ${names.join(', ')}.` : `There are none yet.`;
}

/** For tools that only read: a session that holds no state is a mistake worth naming. */
export async function requireSession(admin: AdminClient, session: string | undefined): Promise<void> {
  if (session === undefined) return;
  // The scenario listing names every session that holds state, beside its scenario.
  const { sessions } = await ask<{ sessions: Array<{ session: string }> }>(admin, 'GET', '/scenarios');
  const ids = sessions.map((s) => s.session);
  if (!ids.includes(session)) throw new ToolError(`Invalid value for 'session': the session '${session}' holds no state. ${known('sessions', ids)}`);
}

/** How many of the latest ids an unknown id's error names. */
const IDS_NAMED = 10;

/** The journal entry with this id, in any session. */
export async function findEntry(admin: AdminClient, id: string): Promise<JournalEntry> {
  const answer = await admin.call('GET', `/requests/${encodeURIComponent(id)}`);
  if (answer.status < 400) return answer.body as JournalEntry;
  if (answer.status !== 404) throw new ToolError(`${adminMessage(answer.body)} (GET /__admin/requests/{id} answered ${answer.status})`);
  const { requests } = await ask<{ requests: JournalEntry[] }>(admin, 'GET', '/requests', { query: { limit: String(IDS_NAMED), brief: 'true' } });
  const latest = requests.map((r) => r.id);
  throw new ToolError(`Invalid value for 'id': no journal entry has the id '${id}'. ${known(`ids (the latest ${IDS_NAMED})`, latest)}`);
}
