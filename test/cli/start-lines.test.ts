// The lines a user reads when the mock starts (SPEC 1): the fixture count agrees with
// `GET /__admin/fixtures`, a further line names each mode that changes what answers, and a port
// already taken says which and how to pick another.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const recordings = mkdtempSync(join(tmpdir(), 'mgm-start-lines-'));
afterAll(() => rmSync(recordings, { recursive: true, force: true }));

describe('the start-up lines', () => {
  it('count the fixtures of every section, as GET /__admin/fixtures lists them', async () => {
    const server = await startMockServer({ port: 0, watch: false, logLevel: 'silent', fixtures: [join(ROOT, 'fixtures')] });
    try {
      const listed = (await (await fetch(`${server.url}/__admin/fixtures`)).json()) as { fixtures: unknown[] };
      expect(server.summary()).toContain(` ${listed.fixtures.length} fixtures,`);
      // TLS is on every start: the line names the CA clients trust for https on the same port.
      expect(server.modes()).toMatch(/^modes: tls ca \S+ca\.pem$/);
    } finally {
      await server.close();
    }
  });

  it('name the upstream, the recording directory, live drift, the clock, the OTLP endpoint and the TLS CA', async () => {
    const server = await startMockServer({
      port: 0,
      dataDir: recordings,
      watch: false,
      logLevel: 'silent',
      upstream: 'http://127.0.0.1:9',
      record: recordings,
      drift: true,
      clock: 'manual',
      otlpEndpoint: 'http://127.0.0.1:9',
    });
    try {
      expect(server.modes()).toBe(`modes: upstream http://127.0.0.1:9; recording into ${recordings}; live drift; clock manual; OTLP spans to http://127.0.0.1:9; tls ca ${join(recordings, 'ca.pem')}`);
    } finally {
      await server.close();
    }
  });

  it('a port already taken names the port and --port', async () => {
    const first = await startMockServer({ port: 0, watch: false, logLevel: 'silent' });
    try {
      await expect(startMockServer({ port: first.port, watch: false, logLevel: 'silent' })).rejects.toThrow(
        `port ${first.port} is already in use: stop what holds it, or pass --port with another (--port 0 picks a free one)`,
      );
    } finally {
      await first.close();
    }
  });
});
