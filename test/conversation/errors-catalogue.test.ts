// The catalogue of error codes and docs/errors.md say the same: every code the mock can answer
// with is documented with its kind and status.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATUS, ERROR_CODES } from '../../src/conversation/error-codes.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

describe('error catalogue', () => {
  it.each(Object.entries(ERROR_CODES))('docs/errors.md lists %s with its kind and status', (code, entry) => {
    expect(doc).toContain(`| \`${code}\` | ${entry.kind} | ${DEFAULT_STATUS[entry.kind]} |`);
  });

  it('lists no code the catalogue lacks', () => {
    const documented = [...doc.matchAll(/^\| `([a-z_]+)` \| [a-z_]+ \| \d+ \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
