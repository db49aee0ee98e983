// All sessions of a server, created on first use and capped: past the cap the least recently
// used session is dropped.
import { MemoryBudget, type MemoryUse } from './memory.js';
import { createSession, evictOldest, type Session } from './session.js';

export const DEFAULT_SESSION = 'default';

export class Sessions {
  private readonly sessions = new Map<string, Session>();
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

  /** The bytes held by every session, by kind. */
  get memory(): Readonly<MemoryUse> {
    return this.budget.use;
  }

  /** Past the overall budget: the oldest items of the least recently used sessions go first. */
  private shed(): void {
    for (const session of this.sessions.values()) {
      while (this.budget.use.total > this.budget.limitBytes && evictOldest(session));
      if (this.budget.use.total <= this.budget.limitBytes) return;
    }
  }

  get(id: string = DEFAULT_SESSION): Session {
    let session = this.sessions.get(id);
    if (session) {
      // Re-insert so the Map's order is least recently used first.
      this.sessions.delete(id);
    } else {
      session = createSession(id, this.journalMax, this.now(), this.budget);
      if (this.sessions.size >= this.maxSessions) this.drop(this.sessions.keys().next().value as string);
    }
    session.lastUsedMs = this.now();
    this.sessions.set(id, session);
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
    this.sessions.get(id)?.holdings.removeAll();
    this.sessions.delete(id);
  }
}
