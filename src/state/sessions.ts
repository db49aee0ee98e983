// All sessions of a server, created on first use and capped: past the cap the least recently
// used session is dropped.
import { createSession, type Session } from './session.js';

export const DEFAULT_SESSION = 'default';

export class Sessions {
  private readonly sessions = new Map<string, Session>();
  /** The scenario set through the admin API without a session; a session's own wins over it. */
  globalScenario: string | undefined;

  constructor(
    private readonly journalMax: number,
    private readonly now: () => number,
    private readonly maxSessions = 10_000,
  ) {}

  get(id: string = DEFAULT_SESSION): Session {
    let session = this.sessions.get(id);
    if (session) {
      // Re-insert so the Map's order is least recently used first.
      this.sessions.delete(id);
    } else {
      session = createSession(id, this.journalMax, this.now());
      if (this.sessions.size >= this.maxSessions) this.sessions.delete(this.sessions.keys().next().value as string);
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
      this.sessions.delete(id);
      return;
    }
    this.sessions.clear();
    this.globalScenario = undefined;
  }
}
