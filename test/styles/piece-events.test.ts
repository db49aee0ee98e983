// Chunks serialized around their piece must be the very bytes a whole JSON.stringify gives, and
// read back as the same data.
import { describe, expect, it } from 'vitest';
import type { StreamEvent, StreamPart } from '../../src/conversation/plan.js';
import { expandedParts, holeMark, MoldShelf, PIECE_MARK, pushPieces, SpanMold } from '../../src/styles/piece-events.js';

const PIECES = ['Hello', ' "quoted"', '\n', '\\', 'ünï', '🌦', '\u0000piece\u0000', '</script>', ''];

const chunk = (piece: string): StreamEvent => ({ event: 'delta', data: { id: 'x', choices: [{ index: 0, delta: { content: piece }, finish: null }] }, paced: true });

describe('pushPieces', () => {
  it('gives each piece the JSON a whole serialization gives, and the same data', () => {
    const events: StreamEvent[] = [];
    pushPieces(events, PIECES, chunk);
    expect(events.map((e) => e.json)).toEqual(PIECES.map((p) => JSON.stringify(chunk(p).data)));
    expect(events.map((e) => e.data)).toEqual(PIECES.map((p) => chunk(p).data));
    expect(events.every((e) => e.event === 'delta' && e.paced === true)).toBe(true);
  });

  it('serializes event by event when the piece occurs twice in a chunk', () => {
    const twice = (piece: string): StreamEvent => ({ data: { a: piece, b: piece } });
    const events: StreamEvent[] = [];
    pushPieces(events, ['one', 'two'], twice);
    expect(events).toEqual([{ data: { a: 'one', b: 'one' } }, { data: { a: 'two', b: 'two' } }]);
    expect(events.some((e) => e.json !== undefined)).toBe(false);
  });
});

describe('SpanMold', () => {
  const chunkOf = (id: string, created: number | string, piece: string): StreamEvent => ({ data: { id, object: 'chunk', created, choices: [{ index: 0, delta: { content: piece } }] }, paced: true });
  const mold = SpanMold.of(chunkOf(holeMark(0), holeMark(1), PIECE_MARK), 2);

  it("gives each stream's chunks the JSON a whole serialization gives, its holes filled with the stream's values", () => {
    for (const [id, created] of [['chatcmpl-1', 1_700_000_000], ['chatcmpl-"two"\\', 42]] as const) {
      const parts: StreamPart[] = [];
      mold!.push(parts, PIECES, (piece) => chunkOf(id, created, piece), [JSON.stringify(id), JSON.stringify(created)]);
      const events = expandedParts(parts);
      expect(events.map((e) => e.json)).toEqual(PIECES.map((p) => JSON.stringify(chunkOf(id, created, p).data)));
      expect(events.map((e) => e.data)).toEqual(PIECES.map((p) => chunkOf(id, created, p).data));
      expect(events.every((e) => e.paced === true)).toBe(true);
    }
  });

  it('is not made when a hole comes twice, after the piece, or not at all', () => {
    expect(SpanMold.of({ data: { a: holeMark(0), b: holeMark(0), c: PIECE_MARK } }, 1)).toBeUndefined();
    expect(SpanMold.of({ data: { c: PIECE_MARK, a: holeMark(0) } }, 1)).toBeUndefined();
    expect(SpanMold.of({ data: { c: PIECE_MARK } }, 1)).toBeUndefined();
    expect(SpanMold.of({ data: { a: holeMark(1), b: holeMark(0), c: PIECE_MARK } }, 2)).toBeUndefined();
  });
});

describe('MoldShelf', () => {
  it("makes a key's mold once, gives it back for an equal key, and keeps a key that has none", () => {
    const made: string[] = [];
    const shelf = new MoldShelf<readonly [string, number, boolean], string>(([model, index, usage]) => {
      made.push(`${model}/${index}/${usage}`);
      return model === 'none' ? undefined : `mold of ${model}/${index}/${usage}`;
    });
    expect(shelf.of(['a', 0, false])).toBe('mold of a/0/false');
    expect(shelf.of(['a', 0, false])).toBe('mold of a/0/false');
    expect(shelf.of(['a', 1, false])).toBe('mold of a/1/false');
    expect(shelf.of(['a', 0, true])).toBe('mold of a/0/true');
    expect(shelf.of(['none', 0, false])).toBeUndefined();
    expect(shelf.of(['none', 0, false])).toBeUndefined();
    expect(made).toEqual(['a/0/false', 'a/1/false', 'a/0/true', 'none/0/false']);
  });

  it('makes its molds anew past 64 keys, whatever keys a client names', () => {
    let made = 0;
    const shelf = new MoldShelf<readonly [number], number>(([n]) => (made++, n));
    for (let n = 0; n < 65; n++) shelf.of([n]);
    expect(made).toBe(65);
    shelf.of([64]);
    expect(made).toBe(65);
    shelf.of([0]);
    expect(made).toBe(66);
  });
});
