// The watcher sees a fixtures directory wherever it lies: under a dot-directory (`--fixtures
// .mock/fixtures`) or inside node_modules, a saved file is served on the next request and health
// counts the reload. Inside the directory, dot-files stay out of the configuration as before.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'mgm-watch-'));
const servers: MockServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(root, { recursive: true, force: true });
});

const fixture = (text: string) => `chat:\n  - name: watched\n    match: { contains: "watch" }\n    reply: { text: "${text}" }\n`;

describe.each([['a dot-directory', '.mock/fixtures'], ['node_modules', 'node_modules/some-package/fixtures']])('a fixtures directory under %s', (_, where) => {
  it('reloads a saved file and serves it on the next request', async () => {
    const dir = join(root, where);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'chat.yaml'), fixture('before'));
    const server = await startMockServer({ fixtures: dir });
    servers.push(server);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const ask = async () => (await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'watch?' }] })).choices[0]!.message.content;
    expect(await ask()).toBe('before');

    writeFileSync(join(dir, 'chat.yaml'), fixture('after'));
    await expect.poll(server.reloads, { timeout: 5000 }).toBeGreaterThan(0);
    expect(await ask()).toBe('after');
    const health = (await (await fetch(`${server.url}/__admin/health`)).json()) as { status: string; reloads: number };
    expect(health).toMatchObject({ status: 'ok', reloads: server.reloads() });

    // A dot-file inside the directory is no configuration: saving one changes nothing served.
    const before = server.reloads();
    writeFileSync(join(dir, '.draft.yaml'), fixture('draft'));
    writeFileSync(join(dir, 'more.yaml'), 'chat: []\n');
    await expect.poll(server.reloads, { timeout: 5000 }).toBeGreaterThan(before);
    expect(await ask()).toBe('after');
  });
});
