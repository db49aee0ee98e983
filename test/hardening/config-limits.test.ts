// Configuration is bounded: a file's size, the number of fixtures, a string's length and YAML alias
// expansion, each passed bound reported at file:line:col naming the file, and `validate` never
// prints a stack trace (a 50 MB file froze the mock for 84 s, billion laughs killed validate).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_LIMITS } from '../../src/config/bounds.js';
import { ensureBuilt } from '../helpers/built.js';
import { tempDir, validate } from './cli-run.js';

const LAUGHS = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
chat: [{ reply: { text: "x" } }]
`;

beforeAll(ensureBuilt, 300_000);

describe('configuration bounds', () => {
  it('validate reports each passed bound at file:line:col and no stack trace', () => {
    const dir = tempDir({ 'laughs.yaml': LAUGHS });
    writeFileSync(join(dir, 'huge.yaml'), Buffer.alloc(50 * 1024 * 1024, '#'));
    const count = CONFIG_LIMITS.entries + 1;
    writeFileSync(join(dir, 'many.yaml'), `chat:\n${'  - reply: { text: x }\n'.repeat(count)}`);
    writeFileSync(join(dir, 'long.yaml'), `chat:\n  - name: long\n    reply:\n      text: "${'y'.repeat(CONFIG_LIMITS.stringChars + 1)}"\n`);
    const result = validate(dir);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/huge\.yaml:1:1: is 52428800 bytes, over the limit of 4194304 bytes for one file$/),
      expect.stringMatching(/laughs\.yaml:1:1: YAML aliases expand past the limit of 100/),
      expect.stringMatching(/long\.yaml:4:13: a string of 100001 characters passes the limit of 100000$/),
      expect.stringMatching(new RegExp(`many\\.yaml:${count + 1}:5: chat\\[${CONFIG_LIMITS.entries}\\]: the configuration passes the limit of ${CONFIG_LIMITS.entries} fixtures`)),
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('finds a __proto__ key or a string past its bound wherever the parsed data hides it, at its place', () => {
    const long = 'k'.repeat(CONFIG_LIMITS.stringChars + 1);
    const dir = tempDir({
      // A key made of a collection: the parsed data holds it as one string.
      'complex.yaml': `chat:\n  - reply:\n      text: x\n      ? { __proto__: 1 }\n      : 2\n`,
      // YAML 1.1's ordered map: the parsed data holds a Map.
      'omap.yaml': `%YAML 1.1\n---\nchat: [{ reply: { text: x } }]\nextra: !!omap\n  - __proto__: 1\n`,
      'long-key.yaml': `chat:\n  - reply: { text: x, ${long}: 1 }\n`,
      // An alias that makes the data circular: only the schema finds a problem (the unknown key is the root's).
      'circular.yaml': `chat: [{ reply: { text: x } }]\nextra: &a [1, *a]\n`,
      // Both a __proto__ key and aliases past their bound: the key is reported, as the file's first problem.
      'laughs-proto.yaml': `${LAUGHS}extra: { __proto__: 1 }\n`,
    });
    const result = validate(dir);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/circular\.yaml:1:1: unknown key "extra"/),
      expect.stringMatching(/complex\.yaml:4:11: "__proto__" is not allowed as a key$/),
      expect.stringMatching(/laughs-proto\.yaml:9:10: "__proto__" is not allowed as a key$/),
      expect.stringMatching(/long-key\.yaml:2:23: a string of 100001 characters passes the limit of 100000$/),
      expect.stringMatching(/omap\.yaml:5:5: "__proto__" is not allowed as a key$/),
    ]);
  }, 60_000);
});
