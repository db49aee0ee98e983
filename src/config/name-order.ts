// The order a directory's files load in: String#localeCompare's (ICU's root collation), which the
// walk has always used. Its first call sets up ICU's collator, about 10 ms of a start's CPU. Names
// of ASCII letters, digits, `_`, `-` and `.` (nearly every path) are ordered here as it orders
// them: by each character's place in `_-.0-9a-z`, either case alike, then, only if that ties, a
// lower-case letter before its capital at the first place they differ. Any other name goes to
// localeCompare.
const PLAIN = /^[\w.-]*$/;
const PLACES = '_-.0123456789abcdefghijklmnopqrstuvwxyz';

const PLACE = new Int8Array(128);
for (let i = 0; i < PLACES.length; i++) {
  PLACE[PLACES.charCodeAt(i)] = i;
  PLACE[PLACES[i]!.toUpperCase().charCodeAt(0)] = i;
}

/** Negative when `a` comes first, positive when `b` does, 0 for the same name: localeCompare's sign. */
export function nameOrder(a: string, b: string): number {
  if (!PLAIN.test(a) || !PLAIN.test(b)) return a.localeCompare(b);
  let caseOrder = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const order = PLACE[x]! - PLACE[y]!;
    if (order !== 0) return order;
    // The same letter in two cases: the lower-case one (the higher code) first.
    caseOrder ||= y - x;
  }
  return a.length - b.length || caseOrder;
}
