// A body's schema check is remembered by the body's text (styles/parsed-bodies.ts): a repeated
// body is not checked again, and nothing else is answered from what was remembered.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { caches } from '../../src/conversation/caches.js';
import { parseJsonText, type ParsedJson } from '../../src/server/json-body.js';
import { parseBody } from '../../src/styles/validate.js';

const chat = z.looseObject({ model: z.string().min(1), messages: z.array(z.looseObject({ role: z.string(), content: z.string() })), mode: z.string().default('auto') });
const other = z.looseObject({ model: z.string().min(1), mode: z.string().default('other') });

/** A body as the server reads one: parsed from its text, a new object each time. */
const read = (text: string): object => (parseJsonText(text) as ParsedJson).body as object;
const text = (content: string, model = 'm') => JSON.stringify({ model, messages: [{ role: 'user', content }] });

describe('a body checked by its text', () => {
  it('gives a repeated body what its first check gave', () => {
    const first = parseBody(chat, read(text('hello')));
    expect(first).toEqual({ model: 'm', messages: [{ role: 'user', content: 'hello' }], mode: 'auto' });
    expect(parseBody(chat, read(text('hello')))).toBe(first);
  });

  it('checks a body of another text, or for another schema, on its own', () => {
    parseBody(chat, read(text('hello', 'a')));
    expect(parseBody(chat, read(text('hellp', 'a')))).toMatchObject({ messages: [{ content: 'hellp' }] });
    expect(parseBody(chat, read(text('hello', 'b')))).toMatchObject({ model: 'b' });
    expect(parseBody(other, read(text('hello', 'a')))).toEqual({ model: 'a', messages: [{ role: 'user', content: 'hello' }], mode: 'other' });
  });

  it('refuses a repeated bad body every time, and checks again a body not read from its text or too long to keep', () => {
    const bad = JSON.stringify({ model: '', messages: [] });
    for (let round = 0; round < 2; round++) expect(() => parseBody(chat, read(bad))).toThrow("Invalid value for 'model'");
    const body = read(text('copied'));
    const first = parseBody(chat, body);
    expect(parseBody(chat, { ...body })).not.toBe(first);
    const long = text('x'.repeat(5000));
    expect(parseBody(chat, read(long))).not.toBe(parseBody(chat, read(long)));
  });

  it('still checks a repeated body right once more texts than it keeps came between', () => {
    const first = parseBody(chat, read(text('kept?')));
    for (let index = 0; index < 100; index++) parseBody(chat, read(text(`between ${index}`)));
    const again = parseBody(chat, read(text('kept?')));
    expect(again).toEqual(first);
  });

  it('is counted among the caches, and checks again what a memory budget made it give up', () => {
    const first = parseBody(chat, read(text('budget')));
    expect(caches.bytes).toBeGreaterThan(0);
    caches.fitIn(0);
    const again = parseBody(chat, read(text('budget')));
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });
});
