// The watcher takes one of the system's file watches (Linux: inotify) a directory, not one a file:
// a fixtures folder of many files neither runs into the system's limit on watches (ENOSPC) nor
// makes a start scan every file before listening. A file written in a folder made after the start
// is still heard.
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { tempDir } from '../hardening/cli-run.js';

/** The inotify watches this process holds, all its inotify instances together. */
function inotifyWatches(): number {
  let watches = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    let target;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== 'anon_inode:inotify') continue;
    watches += readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1').split('\n').filter((line) => line.startsWith('inotify wd:')).length;
  }
  return watches;
}

const fixture = (name: string, text: string) => `chat:\n  - name: ${name}\n    match: { contains: "${name}" }\n    reply: { text: "${text}" }\n`;

const servers: MockServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe.runIf(process.platform === 'linux')('the watcher of 60 fixture files in three folders', () => {
  it('holds a watch a folder, and hears a file written in a folder made after the start', async () => {
    const files = Object.fromEntries(
      ['', 'team-a/', 'team-b/'].flatMap((folder) => Array.from({ length: 20 }, (_, i) => [`${folder}f${i}.yaml`, fixture(`${folder.slice(0, -1) || 'top'}-${i}`, 'x')])),
    );
    const fixtures = tempDir(files);
    const scenarios = tempDir();
    const before = inotifyWatches();
    const server = await startMockServer({ fixtures, scenarios });
    servers.push(server);
    // The fixtures folder, its two folders and the scenarios folder.
    expect(inotifyWatches() - before).toBe(4);

    mkdirSync(join(fixtures, 'later'));
    const reloads = server.reloads();
    writeFileSync(join(fixtures, 'later', 'new.yaml'), fixture('made-later', 'heard'));
    await expect.poll(server.reloads, { timeout: 5000 }).toBeGreaterThan(reloads);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    await expect
      .poll(async () => (await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'made-later' }] })).choices[0]!.message.content, { timeout: 5000 })
      .toBe('heard');
  });
});
