// A style whose chat path also carries the action (generate-content's `{model}:{action}`): the
// registry entry reads the path's parameters, and the request goes to chat or token counting.
import { MockError } from '../conversation/errors.js';
import { newNotes, type Operation } from './exchange.js';
import type { StyleEntry } from '../styles/registry.js';

export function byAction(entry: StyleEntry, talk: Operation, count: Operation | undefined): Operation {
  const read = entry.params!;
  return async (mock, exchange, door) => {
    let parsed: ReturnType<typeof read>;
    try {
      parsed = read(exchange.params);
    } catch (error) {
      if (!(error instanceof MockError)) throw error;
      return { error, notes: newNotes(door.style), headers: {}, envelope: door.envelope(exchange) };
    }
    return (parsed.counting && count ? count : talk)(mock, { ...exchange, params: parsed.params }, door);
  };
}
