// The README promises Node 20.19: `npm ci` warns EBADENGINE for any locked package whose own
// `engines.node` refuses it (cookie@2, through light-my-request, once did), so none may.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;

describe('the locked packages on the oldest Node the package accepts', () => {
  it('every one accepts it, so npm ci prints no engine warning', () => {
    const floor = semver.minVersion((read('package.json').engines as { node: string }).node)!.version;
    const packages = read('package-lock.json').packages as Record<string, { engines?: { node?: string } | string[] }>;
    const refusing = Object.entries(packages)
      .map(([path, entry]) => ({ path, node: Array.isArray(entry.engines) ? undefined : entry.engines?.node }))
      .filter(({ node }) => node !== undefined && !semver.satisfies(floor, node))
      .map(({ path, node }) => `${path} wants node ${node}`);
    expect(floor).toBe('20.19.0');
    expect(refusing).toEqual([]);
  });
});
