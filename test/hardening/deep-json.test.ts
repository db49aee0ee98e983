// A large JSON text nested past the bound is refused before JSON.parse reads it (SPEC 11, "Time"):
// V8 parses a level of nesting in about a microsecond, so 2 MB of brackets held the loop for over
// a second, and the refusal after the parse came too late. Every door that parses a client's JSON
// text looks first: the body, a batch file's line, a video's metadata, tool-call arguments sent
// back, the sockets' events (test/realtime) and MCP (test/mcp); a text at the bound is parsed as
// before. A URL-encoded form, which no door takes, is read up to 64 KB: its parser is slow on brackets.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_BODY_DEPTH, nestsDeeperThan, parseClientJson } from '../../src/conversation/json-text.js';
import { batchFileLine } from '../../src/media/batch-input.js';
import { parseJsonText } from '../../src/server/json-body.js';
import { measureBody } from '../../src/styles/body-shape.js';
import { parseArguments } from '../../src/styles/chat-completions/decode.js';
import { decodeVideoRequest } from '../../src/styles/videos/decode.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const brackets = (levels: number, inner = '1') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
/** Nested `levels` deep, padded with a long string to `chars` characters. */
const deepText = (levels: number, chars: number) => brackets(levels, `"${'x'.repeat(Math.max(0, chars - 2 * levels - 2))}"`);

afterEach(() => vi.restoreAllMocks());

describe('the nesting of a JSON text, looked at unparsed', () => {
  it('counts the levels measureBody counts, skipping brackets and escaped quotes inside strings', () => {
    for (const levels of [MAX_BODY_DEPTH, MAX_BODY_DEPTH + 1]) {
      const text = brackets(levels);
      expect(nestsDeeperThan(text, MAX_BODY_DEPTH)).toBe(!measureBody(JSON.parse(text)).withinDepth);
    }
    const inStrings = `{"a":"${'['.repeat(500)}","b":"\\"${'{'.repeat(500)}\\\\","c":[{"d":"]]]"}]}`;
    expect(nestsDeeperThan(inStrings, 3)).toBe(false);
    expect(nestsDeeperThan(inStrings, 2)).toBe(true);
  });

  it('gives a string that never closes to the parse, which words its error', () => {
    const text = `[[["${'['.repeat(300_000)}`;
    expect(nestsDeeperThan(text, MAX_BODY_DEPTH)).toBe(false);
    expect(() => parseClientJson(text)).toThrow(SyntaxError);
  });
});

describe('a large text nested too deep', () => {
  const texts = { '300 KB, parsed whole': deepText(150_000, 300 * 1024), '2 MB, parsed in slices': deepText(1_000_000, 2 * 1024 * 1024) };

  it.each(Object.entries(texts))('refuses a body of %s without JSON.parse', async (_name, text) => {
    const parse = vi.spyOn(JSON, 'parse');
    await expect(Promise.resolve().then(() => parseJsonText(text))).rejects.toThrow(`The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
    expect(parse).not.toHaveBeenCalled();
  });

  it('refuses a batch line, a video metadata and a socket event without JSON.parse, and keeps deep tool arguments as their text', () => {
    const text = texts['300 KB, parsed whole'];
    const parse = vi.spyOn(JSON, 'parse');
    expect(() => batchFileLine(text, 3, new Set())).toThrow('Line 3 of the batch file nests its body too deeply.');
    expect(() => decodeVideoRequest({ model: 'sora-2', prompt: 'a lighthouse', metadata: text })).toThrow(`Invalid value for 'metadata': it nests deeper than ${MAX_BODY_DEPTH} levels.`);
    expect(() => parseClientJson(text)).toThrow(`the JSON nests deeper than ${MAX_BODY_DEPTH} levels`);
    expect(parseArguments(text)).toBe(text);
    expect(parse).not.toHaveBeenCalled();
  });

  it('parses a large text at the bound as JSON.parse does', async () => {
    const text = deepText(MAX_BODY_DEPTH, 300 * 1024);
    expect((await parseJsonText(text)).body).toEqual(JSON.parse(text));
    expect(parseClientJson(text)).toEqual(JSON.parse(text));
  });
});

describe('bodies koa-body parses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const post = (contentType: string, body: string) =>
    fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-test', 'content-type': contentType }, body });

  it.each(['application/json; charset=latin1', 'application/vnd.api+json'])('refuses %s nested too deep without JSON.parse', async (contentType) => {
    const text = deepText(150_000, 300 * 1024);
    const parse = vi.spyOn(JSON, 'parse');
    const answer = await post(contentType, text);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(`The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
    expect(parse.mock.calls.filter(([parsed]) => parsed.length >= text.length)).toEqual([]);
  });

  it('reads a URL-encoded form up to 64 KB, naming that limit past it', async () => {
    const refused = await post('application/x-www-form-urlencoded', `model=gpt-4o-mini&${'['.repeat(40_000)}=${']'.repeat(40_000)}`);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('The request body is larger than the limit of 65536 bytes.');
    expect((await post('application/x-www-form-urlencoded', 'model=gpt-4o-mini')).status).toBe(400);
  });
});
