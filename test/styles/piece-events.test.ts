// Chunks serialized around their piece must be the very bytes a whole JSON.stringify gives, and
// read back as the same data.
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/conversation/plan.js';
import { pushPieces } from '../../src/styles/piece-events.js';

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
