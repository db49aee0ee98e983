// The drift command against upstreams no gateway should be: one that never answers, one that
// answers without end, one that nests its answer past 1,000 levels. Each ends the run with the
// upstream named (exit 2 from the command), never a hang or a crash.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrift } from '../../src/drift.js';
import { ensureBuilt } from '../helpers/built.js';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';

const ASKED = `
drift:
  - name: one-question
    path: /v1/chat/completions
    request: { model: gpt-4o-mini, messages: [ { role: user, content: "Anyone there?" } ] }
`;

/** Writes as fast as the socket takes it, until the mock hangs up. */
function endless(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const more = (): void => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', more);
  };
  response.write('{"padding":"');
  more();
}

const DEPTH = 1001;

let dir: string;
let silent: FakeUpstream;
let flood: FakeUpstream;
let deep: FakeUpstream;
beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mgm-drift-bounds-'));
  writeFileSync(join(dir, 'asked.yaml'), ASKED);
  silent = await startFakeUpstream(() => {});
  flood = await startFakeUpstream((_request, response) => endless(response));
  deep = await startFakeUpstream((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(`{"choices":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`);
  });
});
afterAll(async () => {
  await Promise.all([silent.close(), flood.close(), deep.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const drift = (url: string, timeoutMs = 300) => runDrift({ upstream: url, fixtures: [dir], key: 'sk-drift', timeoutMs });

describe('drift against a hostile upstream', () => {
  it('gives up on one that never answers at the deadline, naming it', async () => {
    await expect(drift(silent.url)).rejects.toThrow(`${silent.url} could not be asked (POST /v1/chat/completions): did not answer within 300 ms`);
  });

  it('stops reading one that answers without end at 16 MB', async () => {
    // A deadline the 16 MB arrive well within, on a busy machine too.
    await expect(drift(flood.url, 30_000)).rejects.toThrow(`${flood.url} could not be asked (POST /v1/chat/completions): answered more than 16 MB`);
  });

  it('refuses an answer nested deeper than 1,000 levels', async () => {
    await expect(drift(deep.url)).rejects.toThrow(`${deep.url} could not be asked (POST /v1/chat/completions): answered JSON nested deeper than 1000 levels`);
  });

  it('exits 2 from the command, its --timeout-ms the deadline', async () => {
    const cli = [join(import.meta.dirname, '..', '..', 'dist', 'cli.js'), 'drift', '--upstream', silent.url, '--fixtures', dir, '--timeout-ms', '300'];
    const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
      execFile(process.execPath, cli, { encoding: 'utf8' }, (error, _stdout, stderr) => done({ code: error ? (error.code as number) : 0, stderr }));
    });
    expect(run.stderr).toContain(`${silent.url} could not be asked`);
    expect(run.code).toBe(2);
  });
});
