// Cursor pages over a session's files and batches, as the vendors' list endpoints give them:
// the items after the one the cursor names, at most `limit`, and whether more follow.
import { invalid } from '../conversation/errors.js';

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** `ordered` as listed; `after` (named `field` in the request) must be an id of the list. */
export function pageAfter<T extends { id: string }>(ordered: readonly T[], after: string | undefined, limit: number, field: string): Page<T> {
  let start = 0;
  if (after !== undefined) {
    const index = ordered.findIndex((item) => item.id === after);
    if (index < 0) throw invalid(`Invalid value for '${field}': no item '${after}' in this list.`, field);
    start = index + 1;
  }
  return { items: ordered.slice(start, start + limit), hasMore: start + limit < ordered.length };
}
