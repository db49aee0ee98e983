// `--upstream URL` and `--record DIR`, checked at start: a record directory that cannot be made or
// written stops the server there, not at the first request worth keeping.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UPSTREAM_TIMEOUT_MS, type Upstream } from '../../conversation/upstream.js';

function writable(dir: string): string {
  const absolute = resolve(dir);
  try {
    mkdirSync(absolute, { recursive: true });
    const probe = join(absolute, `.model-gateway-mock-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    throw new Error(`The --record directory ${absolute} cannot be written: ${(error as Error).message}`);
  }
  return absolute;
}

export function upstreamOf(url: string | undefined, record: string | undefined, key: string | undefined, origins: readonly string[] = [], timeoutMs = UPSTREAM_TIMEOUT_MS): Upstream | undefined {
  if (url === undefined) {
    if (record !== undefined) throw new Error('--record writes what --upstream answers: give --upstream URL too.');
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--upstream must be an http or https URL, got "${url}".`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`--upstream must be an http or https URL, got "${url}".`);
  return { url: parsed.href.replace(/\/+$/, ''), key: key || undefined, record: record === undefined ? undefined : writable(record), origins, timeoutMs };
}
