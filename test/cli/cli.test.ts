// The command line as a user runs it: help, version, validate, and a server that prints its URL
// and one line per request.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMAND, ensureBuilt } from '../helpers/built.js';

const run = (...args: string[]) => spawnSync(process.execPath, [...COMMAND, ...args], { encoding: 'utf8' });
const version = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mgm-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

beforeAll(ensureBuilt, 300_000);

describe('model-gateway-mock CLI', () => {
  it('prints help naming every flag', () => {
    const { stdout, status } = run('--help');
    expect(status).toBe(0);
    for (const flag of ['--port', '--host', '--fixtures', '--scenarios', '--seed', '--latency', '--clock', '--strict', '--journal-max', '--body-limit', '--admin-token', '--no-watch', '--log-level', 'validate']) {
      expect(stdout).toContain(flag);
    }
  });

  it('prints its version', () => {
    expect(run('--version').stdout.trim()).toBe(version);
  });

  it('validates good files with exit 0', () => {
    const result = run('validate', '--fixtures', tempDir({ 'a.yaml': 'chat:\n  - reply: { text: hi }\n' }), '--scenarios', tempDir({}));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ok');
  });

  it('validates the shipped fixtures and scenarios', () => {
    expect(run('validate', '--fixtures', 'fixtures', '--scenarios', 'scenarios').status).toBe(0);
  });

  it('reports bad files as file:line:col and exits 1', () => {
    const dir = tempDir({ 'bad.yaml': 'chat:\n  - reply:\n      txt: hi\n' });
    const result = run('validate', '--fixtures', dir, '--scenarios', tempDir({}));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/bad\.yaml:3:7: chat\[0\]\.reply: unknown key "txt"; allowed keys: /);
  });

  it('refuses to start on a bad configuration, with the same report', () => {
    const dir = tempDir({ 'bad.yaml': 'models: 3\n' });
    const result = run('--port', '0', '--fixtures', dir, '--scenarios', tempDir({}));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/bad\.yaml:1:9: models: /);
  });

  it('exits 1 with the reason when its port is taken', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    try {
      const port = String((holder.address() as AddressInfo).port);
      const result = run('--port', port, '--fixtures', tempDir({}), '--scenarios', tempDir({}));
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`port ${port} is already in use`);
      expect(result.stderr).toContain('--port');
    } finally {
      holder.close();
    }
  });

  it('prints its URL and what it loaded, then one line per request', async () => {
    const data = tempDir({});
    const env = { ...process.env, XDG_DATA_HOME: data };
    const child = spawn(process.execPath, [...COMMAND, '--port', '0', '--latency', 'none', '--no-watch', '--fixtures', tempDir({ 'c.yaml': 'chat:\n  - name: hi\n    reply: { text: hi }\n' }), '--scenarios', tempDir({})], { env });
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const first = (await lines.next()).value as string;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(first)?.[1];
      expect(url).toBeTruthy();
      const summary = (await lines.next()).value as string;
      expect(summary).toMatch(/^\d\d:\d\d:\d\d\.\d{3} loaded 1 file: 1 fixture, 0 scenarios, \d+ models; open mode; inspector http:\/\/127\.0\.0\.1:\d+\/__admin\/ui$/);
      expect(summary).toContain(`${url}/__admin/ui`);
      // The modes line names the local CA clients trust for https on the same port, made on first start and kept.
      const ca = join(data, 'model-gateway-mock', 'ca.pem');
      expect((await lines.next()).value).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} modes: tls ca ${ca}$`));
      expect(existsSync(ca)).toBe(true);
      await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
      });
      const line = (await lines.next()).value as string;
      expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} POST \/v1\/chat\/completions chat-completions gpt-4o-mini 200 fixture:hi \d+ms$/);
    } finally {
      child.kill();
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);

  it('stops at once, naming it, when a --fixtures or --scenarios directory does not exist; validate fails too', () => {
    const missing = join(tmpdir(), 'mgm-no-such-dir', 'fixtures');
    const started = run('--port', '0', '--fixtures', tempDir({}), '--fixtures', missing, '--scenarios', tempDir({}));
    expect(started.status).toBe(1);
    expect(started.stderr).toContain(`${missing}:1:1: the fixtures directory does not exist`);
    const validated = run('validate', '--fixtures', tempDir({}), '--scenarios', missing);
    expect(validated.status).toBe(1);
    expect(validated.stderr).toContain(`${missing}:1:1: the scenarios directory does not exist`);
  });

  it('validates several --fixtures directories together, sections merged across them', () => {
    const models = tempDir({ 'models.yaml': 'models:\n  - id: only-model\n' });
    const chat = tempDir({ 'chat.yaml': 'chat:\n  - match: { model: only-model }\n    reply: { text: hi }\n' });
    const result = run('validate', '--fixtures', models, '--fixtures', chat, '--scenarios', tempDir({}));
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('ok: 2 files');
  });

  it('init writes the starter files with their media, which validate accepts, and never overwrites', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgm-init-'));
    const first = run('init', dir);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/wrote \d+ files/);
    expect(first.stdout).toContain(`next: npx model-gateway-mock --fixtures `);
    expect(readdirSync(join(dir, 'fixtures', 'media')).length).toBeGreaterThan(0);
    expect(run('validate', '--fixtures', join(dir, 'fixtures'), '--scenarios', join(dir, 'scenarios')).status).toBe(0);
    writeFileSync(join(dir, 'fixtures', 'chat.yaml'), '# mine\n');
    const again = run('init', dir);
    expect(again.stdout).toContain('wrote 0 files');
    expect(again.stdout).toContain(`skipped ${join('fixtures', 'chat.yaml')}: it already exists`);
    expect(readFileSync(join(dir, 'fixtures', 'chat.yaml'), 'utf8')).toBe('# mine\n');
  }, 60_000);
});
