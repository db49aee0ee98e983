// An index over a sorted fixture list, built once at load: a fixture with `match.fingerprint` can
// only match a request of that fingerprint, so one lookup names the recorded turns worth testing;
// a fixture with `contains` can only match a prompt that holds its needle, so one pass over the
// prompt (NeedleSearch) names the few such fixtures worth testing. The others are always tested.
// Order is kept, so the first match is the same fixture a full scan would find.
import type { Matcher } from './match.js';
import { NeedleSearch } from './needles.js';
import type { MatchSubject } from './subject.js';

interface FixtureIndex {
  /** Left out with fewer than MIN_ANCHORED needles: those fixtures are then open. */
  search: NeedleSearch | undefined;
  /**
   * The positions of the fixtures that need each needle, ascending, needle after needle in one
   * array: needle `id`'s run from `starts[id]` to `starts[id + 1]`. Mostly one fixture a needle,
   * which an array of its own held in 184 bytes.
   */
  positions: Int32Array;
  starts: Int32Array;
  /** Per fingerprint: the positions of the fixtures pinned to it, ascending. */
  pinned: Map<string, number[]>;
  /** Positions of the fixtures tested whatever the request, ascending. */
  open: number[];
}

/** Below this many needles (or pinned fixtures) a scan costs no more than the index. */
const MIN_ANCHORED = 32;

const indexes = new WeakMap<readonly unknown[], FixtureIndex>();

/**
 * The last search built, by its needles: a reload that changed no needle (a reply edited, a file
 * added without `contains`) reuses it instead of building the automaton again.
 */
let lastSearch: { needles: string; search: NeedleSearch } | undefined;

function searchFor(needles: string[]): NeedleSearch {
  const key = needles.join('\u0000');
  if (lastSearch?.needles !== key) lastSearch = { needles: key, search: new NeedleSearch(needles) };
  return lastSearch.search;
}

function flat(lists: readonly number[][]): { positions: Int32Array; starts: Int32Array } {
  const starts = new Int32Array(lists.length + 1);
  lists.forEach((list, id) => (starts[id + 1] = starts[id]! + list.length));
  return { positions: Int32Array.from(lists.flat()), starts };
}

/**
 * Indexes a sorted list and freezes it, since the index describes the list as it is now.
 * Lists not indexed (small ones, a session's own) are scanned.
 */
export function indexFixtures<T extends { matcher: Matcher }>(fixtures: T[]): readonly T[] {
  const needleIds = new Map<string, number>();
  const positions: number[][] = [];
  const pinned = new Map<string, number[]>();
  let pinnedCount = 0;
  const open: number[] = [];
  fixtures.forEach((fixture, position) => {
    const { fingerprint, contains: needle } = fixture.matcher;
    // A fingerprint is the narrower anchor: a recorded turn is one request among all.
    if (fingerprint !== undefined) {
      let list = pinned.get(fingerprint);
      if (!list) pinned.set(fingerprint, (list = []));
      list.push(position);
      pinnedCount++;
      return;
    }
    if (!needle) {
      open.push(position);
      return;
    }
    let id = needleIds.get(needle);
    if (id === undefined) {
      id = positions.length;
      needleIds.set(needle, id);
      positions.push([]);
    }
    positions[id]!.push(position);
  });
  const searched = needleIds.size >= MIN_ANCHORED;
  if (!searched && pinnedCount < MIN_ANCHORED) return Object.freeze(fixtures);
  if (searched) indexes.set(fixtures, { search: searchFor([...needleIds.keys()]), ...flat(positions), pinned, open });
  // Too few needles to search for: their fixtures are tested like the open ones.
  else indexes.set(fixtures, { search: undefined, ...flat([]), pinned, open: [...open, ...positions.flat()].sort((a, b) => a - b) });
  return Object.freeze(fixtures);
}

/**
 * The positions worth testing, in list order, or undefined when the list has no index. Tested
 * lazily: the first match ends the walk.
 */
export function candidates(fixtures: readonly unknown[], subject: MatchSubject): Iterable<number> | undefined {
  const index = indexes.get(fixtures);
  if (!index) return undefined;
  const anchored: number[] = [];
  const { positions, starts } = index;
  if (index.search) for (const id of index.search.found(subject.lastUserLower)) for (let at = starts[id]!; at < starts[id + 1]!; at++) anchored.push(positions[at]!);
  // Asked only of lists with recorded turns: a chat subject makes its fingerprint when first read.
  if (index.pinned.size > 0 && subject.fingerprint !== undefined) anchored.push(...(index.pinned.get(subject.fingerprint) ?? []));
  anchored.sort((a, b) => a - b);
  return merge(anchored, index.open);
}

function* merge(a: readonly number[], b: readonly number[]): Generator<number> {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) yield a[i++]!;
    else yield b[j++]!;
  }
}
