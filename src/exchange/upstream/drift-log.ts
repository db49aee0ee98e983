// What live drift found (`--upstream --drift`): one row per endpoint and path, counted, with when it
// was first and last seen and a journal id to look at. Bounded: past `DRIFT_ROWS_MAX` rows the one
// seen longest ago goes, so a gateway that drifts everywhere cannot grow it without end.
import type { DriftFinding } from '../../styles/drift-shapes.js';

export const DRIFT_ROWS_MAX = 500;

export interface DriftRow extends DriftFinding {
  /** `POST /v1/chat/completions`. */
  endpoint: string;
  style: string | null;
  count: number;
  first_seen: string;
  last_seen: string;
  /** The journal id of the latest request that showed it. */
  example: string;
}

export class DriftLog {
  /** Insertion order is last-seen order: a row seen again moves to the end. */
  private readonly rows = new Map<string, DriftRow>();

  constructor(private readonly max = DRIFT_ROWS_MAX) {}

  /** Adds what one request showed; answers the rows it touched, as they now stand. */
  note(seen: { endpoint: string; style: string | null; time: string; example: string }, findings: readonly DriftFinding[]): DriftRow[] {
    return findings.map((finding) => {
      const key = `${seen.endpoint} ${finding.path}`;
      const before = this.rows.get(key);
      this.rows.delete(key);
      const row: DriftRow = {
        ...finding,
        endpoint: seen.endpoint,
        style: seen.style,
        count: (before?.count ?? 0) + 1,
        first_seen: before?.first_seen ?? seen.time,
        last_seen: seen.time,
        example: seen.example,
      };
      this.rows.set(key, row);
      if (this.rows.size > this.max) this.rows.delete(this.rows.keys().next().value!);
      return row;
    });
  }

  /** By endpoint, then path. */
  list(): DriftRow[] {
    return [...this.rows.values()].sort((a, b) => a.endpoint.localeCompare(b.endpoint) || a.path.localeCompare(b.path));
  }

  clear(): number {
    const cleared = this.rows.size;
    this.rows.clear();
    return cleared;
  }
}
