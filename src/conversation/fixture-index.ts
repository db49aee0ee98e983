// An index over a sorted fixture list, built once at load: a fixture with `contains` can only
// match a prompt that holds its needle, so one pass over the prompt (NeedleSearch) names the few
// such fixtures worth testing. The others are always tested. Order is kept, so the first match
// is the same fixture a full scan would find.
import type { Matcher } from './match.js';
import { NeedleSearch } from './needles.js';
import type { MatchSubject } from './subject.js';

interface FixtureIndex {
  search: NeedleSearch;
  /** Per needle: the positions of the fixtures that need it, ascending. */
  positions: number[][];
  /** Positions of the fixtures without a needle, ascending. */
  open: number[];
}

/** Below this many needles a scan costs no more than a walk over the prompt. */
const MIN_NEEDLES = 32;

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

/**
 * Indexes a sorted list and freezes it, since the index describes the list as it is now.
 * Lists not indexed (small ones, a session's own) are scanned.
 */
export function indexFixtures<T extends { matcher: Matcher }>(fixtures: T[]): readonly T[] {
  const needleIds = new Map<string, number>();
  const positions: number[][] = [];
  const open: number[] = [];
  fixtures.forEach((fixture, position) => {
    const needle = fixture.matcher.contains;
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
  if (needleIds.size >= MIN_NEEDLES) indexes.set(fixtures, { search: searchFor([...needleIds.keys()]), positions, open });
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
  for (const id of index.search.found(subject.lastUserLower)) anchored.push(...index.positions[id]!);
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
