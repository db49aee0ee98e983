// All sessions of a server, created on first use and capped: past the cap the least recently
// used session is dropped.
import { failure } from '../conversation/errors.js';
import { MemoryBudget, type MemoryReport } from './memory.js';
import { createSession, evictOldest, type Session } from './session.js';

export const DEFAULT_SESSION = 'default';

/** The longest session id taken (`x-mock-session`, `?session=`); a longer one is a 400. */
export const MAX_SESSION_ID = 256;

/** What a session costs before it holds anything (its maps, ring, counters), as measured: about 2.2 KB. */
const SESSION_BYTES = 2304;

/** Refuses a session id past the bound; `where` names the header or parameter it came in. */
export function checkSessionId(id: string, where: string): void {
  if (id.length > MAX_SESSION_ID) {
    throw failure('invalid_value', `The session id in ${where} is ${id.length} characters long; at most ${MAX_SESSION_ID} are taken.`, { param: where });
  }
}

const sessionBytes = (id: string): number => SESSION_BYTES + id.length;

export class Sessions {
  private readonly sessions = new Map<string, Session>();
  /**
   * The session used last, so last in the Map's order already: asked for again, as every request
   * of a client with one key is, it is not moved (a delete and a set of the Map a request).
   */
  private newest: Session | undefined;
  /** The scenario set through the admin API without a session; a session's own wins over it. */
  globalScenario: string | undefined;

  constructor(
    private readonly journalMax: number,
    private readonly now: () => number,
    private readonly maxSessions = 10_000,
    private readonly budget = new MemoryBudget(),
  ) {
    budget.shed = () => this.shed();
  }

  /** The bytes held by every session, by kind, and by the process's caches. */
  get memory(): MemoryReport {
    return this.budget.report();
  }

  /** Past the overall budget: the oldest items of the least recently used sessions go first. */
  private shed(): void {
    for (const session of this.sessions.values()) {
      while (this.budget.use.total > this.budget.limitBytes && evictOldest(session));
      if (this.budget.use.total <= this.budget.limitBytes) return;
    }
  }

  get(id: string = DEFAULT_SESSION): Session {
    let session = this.newest;
    if (session?.id === id) {
      session.lastUsedMs = this.now();
      return session;
    }
    session = this.sessions.get(id);
    if (session) {
      // Re-insert so the Map's order is least recently used first.
      this.sessions.delete(id);
    } else {
      session = createSession(id, this.journalMax, this.now(), this.budget);
      this.budget.change('sessions', sessionBytes(id));
      if (this.sessions.size >= this.maxSessions) this.drop(this.sessions.keys().next().value as string);
    }
    session.lastUsedMs = this.now();
    this.sessions.set(id, session);
    this.newest = session;
    return session;
  }

  /** The session, marked as heard of (SPEC 17): a model request, a session-scoped write or an announcement named it. */
  heard(id: string = DEFAULT_SESSION): Session {
    const session = this.get(id);
    session.heard = true;
    return session;
  }

  peek(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  all(): Session[] {
    return [...this.sessions.values()];
  }

  /** Drops one session's state, or every session's and the global scenario. */
  reset(id?: string): void {
    if (id !== undefined) {
      this.drop(id);
      return;
    }
    for (const key of [...this.sessions.keys()]) this.drop(key);
    this.globalScenario = undefined;
  }

  private drop(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    session.holdings.removeAll();
    this.budget.change('sessions', -sessionBytes(id));
    this.sessions.delete(id);
    if (this.newest === session) this.newest = undefined;
  }
}
