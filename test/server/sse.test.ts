// The one writer's SSE framing: whatever a field value holds, a frame is one event, read back by
// a real SSE parser as the name and data that were framed.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { sseFrame } from '../../src/server/sse.js';

function parsed(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events;
}

describe('an SSE frame', () => {
  it('carries JSON data as one data line', () => {
    expect(sseFrame('message_start', '{"a":1}')).toBe('event: message_start\ndata: {"a":1}\n\n');
    expect(parsed(sseFrame(undefined, '[DONE]'))).toMatchObject([{ data: '[DONE]' }]);
  });

  it.each([
    ['a line feed', 'first\nsecond'],
    ['a carriage return', 'first\rsecond'],
    ['both', 'first\r\nsecond\n\nthird'],
    ['what looks like another event', 'x\n\nevent: forged\ndata: {"evil":true}'],
  ])('stays one event when the data holds %s', (_what, data) => {
    const events = parsed(sseFrame('delta', data) + sseFrame('done', 'end'));
    expect(events.map((event) => event.event)).toEqual(['delta', 'done']);
    // A client joins data lines with "\n": every line break comes back as one.
    expect(events[0]!.data).toBe(data.replace(/\r\n|\r/g, '\n'));
  });

  it('keeps an event name to one line', () => {
    const events = parsed(sseFrame('name\ndata: forged', '{}'));
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toBe('{}');
  });
});
