// A run of content chunks framed at once must be the very bytes of framing each chunk alone, in
// every text framing, whatever the pieces and the JSON around them hold.
import { describe, expect, it } from 'vitest';
import type { Framing, StreamEvent } from '../../src/conversation/plan.js';
import { FRAMERS, Framed } from '../../src/server/framers.js';
import { framedRun, type FramedRun } from '../../src/server/piece-frames.js';
import { SentStream } from '../../src/server/sent.js';
import { pushPieces } from '../../src/styles/piece-events.js';

const PIECES = ['Hello', ' "quoted"', '","', '\\', '\\"', ',"', '$&', '$1 $$', ' naïve 🎉', '\n\r\u2028', '', '</script>'];

function chunks(name: string | undefined, id: string, pieces: readonly string[] = PIECES): StreamEvent[] {
  const events: StreamEvent[] = [{ event: name, data: { type: 'start' } }];
  pushPieces(events, pieces, (piece) => ({ event: name, paced: true, data: { id, choices: [{ delta: { content: piece } }] } }));
  events.push({ event: name, data: '[DONE]' });
  return events;
}

/** Each event framed alone, as the writer frames one. */
function oneByOne(framing: Framing, events: readonly StreamEvent[], from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) {
    const event = events[i]!;
    text += FRAMERS[framing].frame({ name: event.event, data: event.json ?? JSON.stringify(event.data), json: true }, i) as string;
  }
  return text;
}

/** The run's frames as the writer sends them. */
function text(run: FramedRun): string {
  const pending = new Framed();
  pending.addJoined(run.open, run.items, run.between, run.close);
  const taken = pending.take() as string;
  expect(taken).toHaveLength(run.length);
  return taken;
}

describe('a run of chunks framed at once', () => {
  it.each(['sse', 'sse-processing', 'ndjson', 'json-array'] as const)('is the bytes of each chunk framed alone (%s)', (framing) => {
    for (const [name, id] of [[undefined, 'chatcmpl-$&x'], ['content_block_delta', "a$'b$`c"]] as const) {
      const events = chunks(name, id);
      const run = framedRun(events, 1, Infinity, FRAMERS[framing], 1)!;
      expect(run.pieces).toEqual(PIECES);
      expect(text(run)).toBe(oneByOne(framing, events, 1, 1 + PIECES.length));
    }
  });

  it('frames kept (frozen) pieces, whose JSON it keeps, as it frames any, whole or in part', () => {
    const kept = Object.freeze([...PIECES]);
    for (const id of ['first', 'second']) {
      const events = chunks(undefined, id, kept);
      const whole = framedRun(events, 1, Infinity, FRAMERS.sse, 1)!;
      expect(text(whole)).toBe(oneByOne('sse', events, 1, 1 + PIECES.length));
      expect(JSON.parse(whole.piecesJson)).toEqual(PIECES);
      const part = framedRun(events, 3, 7, FRAMERS.sse, 3)!;
      expect(part.pieces).toEqual(PIECES.slice(2, 6));
      expect(JSON.parse(part.piecesJson)).toEqual(PIECES.slice(2, 6));
      expect(text(part)).toBe(oneByOne('sse', events, 3, 7));
    }
  });

  it('stops before a fault strikes, and leaves a stream first event and a binary framing to the writer', () => {
    const events = chunks(undefined, 'x');
    expect(text(framedRun(events, 1, 4, FRAMERS.sse, 1)!)).toBe(oneByOne('sse', events, 1, 4));
    expect(framedRun(events, 1, 2, FRAMERS.sse, 1)).toBeUndefined();
    expect(framedRun(events, 1, Infinity, FRAMERS.sse, 0)).toBeUndefined();
    expect(framedRun(events, 0, Infinity, FRAMERS.sse, 1)).toBeUndefined();
    expect(framedRun(events, 1, Infinity, FRAMERS['aws-event-stream'], 1)).toBeUndefined();
  });

  it('is kept in the journal as the pieces it framed, unless it would pass the journal bound', () => {
    const events = chunks(undefined, 'x');
    const run = framedRun(events, 1, Infinity, FRAMERS.sse, 1)!;
    const sent = new SentStream(200);
    expect(sent.framedRun(run)).toBe(true);
    sent.commit();
    const kept = JSON.parse(sent.json) as { events: Array<{ pieces: string[] }> };
    expect(kept.events).toEqual([{ run: 0, pieces: PIECES }]);
    // A chunk of the same run framed alone after it joins its pieces; one never flushed leaves them.
    const more = new SentStream(200);
    more.framedRun(run);
    const extra = events[1]!;
    more.framed(extra, extra.json!, true, 10);
    more.commit();
    expect((JSON.parse(more.json) as { events: Array<{ pieces: string[] }> }).events[0]!.pieces).toEqual([...PIECES, PIECES[0]]);
    more.framed(extra, extra.json!, true, 10);
    more.settle();
    expect((JSON.parse(more.json) as { events: Array<{ pieces: string[] }> }).events[0]!.pieces).toEqual([...PIECES, PIECES[0]]);
    const huge = { ...run, length: 2 ** 21 };
    expect(new SentStream(200).framedRun(huge)).toBe(false);
  });
});
