// Drift: two answers to the same request, the upstream's and the mock's, compared by shape, never
// by value. Every JSON path with its types, the paths one side lacks, the values of enum-like
// fields, a stream's events as a pattern (repeated deltas folded) and the headers SDKs read. Ids,
// times, texts and numbers are values: they never drift. One pure function, used by the `drift`
// command and by the live comparison.

/** An answer as the journal and the recorder read it: a whole body, or a stream's events. */
export interface ShapedAnswer {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  events?: ReadonlyArray<{ event: string | null; data: unknown }>;
}

export type DriftKind = 'upstream has, mock lacks' | 'mock has, upstream lacks' | 'type differs' | 'new value' | 'event order differs';

export interface DriftFinding {
  /** A JSON path (`choices[].message.role`), `event:NAME.path` inside a stream, `header:NAME` or `events`. */
  path: string;
  kind: DriftKind;
  upstream: string;
  mock: string;
}

/** Fields whose values are a closed set: a value one side sends and the other never does is drift. */
const ENUM_FIELDS = new Set(['object', 'type', 'role', 'status', 'finish_reason', 'stop_reason', 'finishReason']);

/** Headers SDKs read: request ids and rate-limit figures. */
const READ_HEADERS = /^(x-request-id|request-id|retry-after|x-ratelimit-.*|anthropic-ratelimit-.*|openai-processing-ms)$/;

interface PathShape {
  types: Set<string>;
  values: Set<string>;
  /** For an array: whether any element was seen (an empty list says nothing of its elements). */
  elements: boolean;
  /** The path it was first seen under, and whether as a list's element: a key may hold a `.` or `[]`, so the path's text cannot say. */
  parent: string | undefined;
  item: boolean;
}

type Shapes = Map<string, PathShape>;

/**
 * What one answer's comparison reads: its values up to its 5,000th distinct path, 100 levels
 * deep. A real answer has a few hundred; an upstream's answer of 90,000 keys would otherwise make
 * as many findings, each noted and published.
 */
export const MAX_SHAPE_PATHS = 5000;
export const MAX_SHAPE_DEPTH = 100;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

interface Place {
  parent?: string;
  item?: boolean;
}

function note(shapes: Shapes, path: string, value: unknown, enumLike: boolean, place: Place = {}): PathShape | undefined {
  let shape = shapes.get(path);
  if (!shape) {
    if (shapes.size >= MAX_SHAPE_PATHS) return undefined;
    shapes.set(path, (shape = { types: new Set(), values: new Set(), elements: false, parent: place.parent, item: place.item ?? false }));
  }
  shape.types.add(typeOf(value));
  if (enumLike && typeof value === 'string') shape.values.add(value);
  return shape;
}

function walk(shapes: Shapes, path: string, value: unknown, key: string | undefined, place: Place = {}, depth = 0): void {
  const shape = note(shapes, path, value, key !== undefined && ENUM_FIELDS.has(key), place);
  if (!shape || depth >= MAX_SHAPE_DEPTH) return;
  if (Array.isArray(value)) {
    if (value.length > 0) shape.elements = true;
    for (const item of value) {
      if (shapes.size >= MAX_SHAPE_PATHS) return;
      walk(shapes, `${path}[]`, item, undefined, { parent: path, item: true }, depth + 1);
    }
  } else if (value !== null && typeof value === 'object') {
    for (const name in value) {
      if (shapes.size >= MAX_SHAPE_PATHS) return;
      if (Object.hasOwn(value, name)) walk(shapes, path ? `${path}.${name}` : name, (value as Record<string, unknown>)[name], name, { parent: path }, depth + 1);
    }
  }
}

/** An event's name: its SSE `event:`, else its data's `type`, else `data`. */
function eventName(event: { event: string | null; data: unknown }): string {
  const type = (event.data as { type?: unknown } | null)?.type;
  return event.event ?? (typeof type === 'string' ? type : 'data');
}

/** The stream's events in order, each run of one name folded to `name+`. */
export function eventPattern(events: ReadonlyArray<{ event: string | null; data: unknown }>): string[] {
  const pattern: string[] = [];
  for (const event of events) {
    const name = eventName(event);
    const last = pattern[pattern.length - 1];
    if (last === name) pattern[pattern.length - 1] = `${name}+`;
    else if (last !== `${name}+`) pattern.push(name);
  }
  return pattern;
}

function shapesOf(answer: ShapedAnswer): Shapes {
  const shapes: Shapes = new Map();
  // The headers first: an answer past the bound still has them compared.
  for (const name of Object.keys(answer.headers)) if (READ_HEADERS.test(name.toLowerCase())) note(shapes, `header:${name.toLowerCase()}`, 'present', false);
  if (answer.events) {
    for (const event of answer.events) if (typeof event.data === 'object') walk(shapes, `event:${eventName(event)}`, event.data, undefined);
  } else {
    walk(shapes, '', answer.body, undefined);
  }
  return shapes;
}

const shown = (set: Set<string>): string => [...set].sort().join(' | ');

/** Whether a path only one side has (in `shapes`) says nothing: it lies in a list the other side sent empty. */
function inEmptyList(path: string, shapes: Shapes, other: Shapes): boolean {
  // Up the path's own parents, at most the walk's depth: never a search of its text.
  for (let shape = shapes.get(path); shape?.parent !== undefined; shape = shapes.get(shape.parent)) {
    const list = shape.item ? other.get(shape.parent) : undefined;
    if (list && !list.elements) return true;
  }
  return false;
}

/**
 * The paths found missing on one side, and whether a path lies under one of them (only the
 * topmost is named): each path asks its parent once, remembered, so the comparison is linear in
 * the paths however many are missing. Paths are judged in sorted order, a parent before its children.
 */
class MissingPaths {
  private readonly missing = new Set<string>();
  private readonly under = new Map<string, boolean>();

  add(path: string): void {
    this.missing.add(path);
  }

  covers(path: string, shapes: Shapes): boolean {
    const parent = shapes.get(path)?.parent;
    if (parent === undefined) return false;
    let covered = this.under.get(parent);
    if (covered === undefined) this.under.set(parent, (covered = this.missing.has(parent) || this.covers(parent, shapes)));
    return covered;
  }
}

/** What drifted between the two answers, in path order; empty when their shapes agree. */
export function compareShapes(upstream: ShapedAnswer, mock: ShapedAnswer): DriftFinding[] {
  // An error beside a success has no common shape: the status is the one finding.
  if (upstream.status !== mock.status) return [{ path: 'status', kind: 'type differs', upstream: String(upstream.status), mock: String(mock.status) }];
  const findings: DriftFinding[] = [];
  if (upstream.events && mock.events) {
    const theirs = eventPattern(upstream.events).join(' ');
    const ours = eventPattern(mock.events).join(' ');
    if (theirs !== ours) findings.push({ path: 'events', kind: 'event order differs', upstream: theirs, mock: ours });
  }
  const theirs = shapesOf(upstream);
  const ours = shapesOf(mock);
  const missing = new MissingPaths();
  for (const path of [...new Set([...theirs.keys(), ...ours.keys()])].sort()) {
    const a = theirs.get(path);
    const b = ours.get(path);
    if (!a || !b) {
      const [own, other] = a ? [theirs, ours] : [ours, theirs];
      if (missing.covers(path, own) || inEmptyList(path, own, other)) continue;
      missing.add(path);
      if (!b) findings.push({ path, kind: 'upstream has, mock lacks', upstream: shown(a!.types), mock: '-' });
      else findings.push({ path, kind: 'mock has, upstream lacks', upstream: '-', mock: shown(b.types) });
    } else if (shown(a.types) !== shown(b.types)) findings.push({ path, kind: 'type differs', upstream: shown(a.types), mock: shown(b.types) });
    else {
      const unseen = [...a.values].filter((value) => !b.values.has(value));
      if (unseen.length > 0) findings.push({ path, kind: 'new value', upstream: unseen.sort().join(' | '), mock: shown(b.values) });
    }
  }
  return findings;
}
