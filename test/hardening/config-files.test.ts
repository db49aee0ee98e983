// Fixture and scenario files that reach outside their directory (`../`, absolute paths, symlinks
// out, a YAML file that is itself a link out), files that cannot be read (a FIFO, a dangling or
// looping link), link cycles and `__proto__` keys: each is refused with file:line:col, in
// /__admin/health and by `validate`, and the last good configuration stays in force.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND, ensureBuilt } from '../helpers/built.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectPrototypesClean } from './wire.js';

interface Problem {
  file: string;
  line: number;
  col: number;
  message: string;
}

const GOOD = 'chat:\n  - name: good\n    match: { contains: "ping" }\n    reply: { text: "pong" }\n';
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f00000000049454e44ae426082',
  'hex',
);

/** A directory outside every fixtures directory, holding what links and references point at. */
const outside = mkdtempSync(join(tmpdir(), 'mgm-outside-'));
writeFileSync(join(outside, 'evil.yaml'), 'chat:\n  - name: evil\n    match: { contains: "ping" }\n    reply: { text: "pwned" }\n');
writeFileSync(join(outside, 'evil-scenarios.yaml'), 'scenarios:\n  - name: evil\n    steps: [{ error: server_error }]\n');
writeFileSync(join(outside, 'secret.png'), PNG);

let server: TestServer;
let client: OpenAI;

beforeAll(ensureBuilt, 300_000);
beforeAll(async () => {
  server = await startTestServer({ fixtureFiles: { 'good.yaml': GOOD } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
/** Temporary directories of this file, removed at the end. */
const made: string[] = [outside];
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

afterAll(async () => {
  await server.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

async function problems(): Promise<Problem[]> {
  return ((await (await server.admin('/health')).json()) as { errors: Problem[] }).errors;
}

async function ping(): Promise<string | null> {
  return (await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] })).choices[0]!.message.content;
}

/** Makes a change with `act`, waits for the reload it causes, and returns what health reports. */
async function afterReload(act: () => void): Promise<Problem[]> {
  const before = server.reloads();
  act();
  await server.waitForReload(before);
  return problems();
}

/** Removes what a case added and waits until the good configuration loads cleanly again. */
async function restore(...names: string[]): Promise<void> {
  for (const name of names) await server.removeFixture(name);
  expect(await problems()).toEqual([]);
}

const images = (file: string) => `images:\n  - name: picture\n    reply:\n      file: ${file}\n`;

describe('references and links that leave the fixtures directory', () => {
  it('refuses a file reference with ../ at its line and column, keeping the last good config', async () => {
    expect(await ping()).toBe('pong');
    await server.writeFixture('up.yaml', images('../../outside.png'));
    expect(await problems()).toEqual([
      { file: expect.stringMatching(/up\.yaml$/), line: 4, col: 13, message: expect.stringContaining('outside the fixtures directory') },
    ]);
    expect(await ping()).toBe('pong');
    await restore('up.yaml');
  });

  it('refuses an absolute file reference', async () => {
    await server.writeFixture('absolute.yaml', images(join(outside, 'secret.png')));
    expect(await problems()).toEqual([
      { file: expect.stringMatching(/absolute\.yaml$/), line: 4, col: 13, message: expect.stringContaining('outside the fixtures directory') },
    ]);
    await restore('absolute.yaml');
  });

  it('refuses a file reference through a link that points out, and the link itself', async () => {
    const errors = await afterReload(() => {
      mkdirSync(join(server.fixturesDir, 'media'), { recursive: true });
      symlinkSync(join(outside, 'secret.png'), join(server.fixturesDir, 'media', 'secret.png'));
      writeFileSync(join(server.fixturesDir, 'linked.yaml'), images('media/secret.png'));
    });
    expect(errors).toContainEqual({ file: expect.stringMatching(/media\/secret\.png$/), line: 1, col: 1, message: 'links outside the directory and is not loaded' });
    expect(await ping()).toBe('pong');
    await restore('linked.yaml', 'media/secret.png');
  });

  it('refuses a YAML file that is a link out of the directory', async () => {
    const errors = await afterReload(() => symlinkSync(join(outside, 'evil.yaml'), join(server.fixturesDir, 'evil.yaml')));
    expect(errors).toEqual([{ file: expect.stringMatching(/evil\.yaml$/), line: 1, col: 1, message: 'links outside the directory and is not loaded' }]);
    expect(await ping()).toBe('pong');
    await restore('evil.yaml');
  });

  it('refuses a scenario file that is a link out of the scenarios directory', async () => {
    const errors = await afterReload(() => symlinkSync(join(outside, 'evil-scenarios.yaml'), join(server.scenariosDir, 'evil.yaml')));
    expect(errors).toEqual([{ file: expect.stringMatching(/scenarios\/evil\.yaml$/), line: 1, col: 1, message: 'links outside the directory and is not loaded' }]);
    const refused = await fetch(`${server.url}/v1/models`, { headers: { authorization: 'Bearer k', 'x-mock-scenario': 'evil' } });
    expect(refused.status).toBe(400);
    const before = server.reloads();
    execFileSync('rm', [join(server.scenariosDir, 'evil.yaml')]);
    await server.waitForReload(before);
    expect(await problems()).toEqual([]);
  });

  it('loads a directory linked twice (a cycle) once, and says so', async () => {
    const errors = await afterReload(() => symlinkSync(server.fixturesDir, join(server.fixturesDir, 'again')));
    expect(errors).toEqual([{ file: expect.stringMatching(/again$/), line: 1, col: 1, message: 'links to a directory already loaded and is not loaded again' }]);
    expect(await ping()).toBe('pong');
    await restore('again');
  });
});

describe('files that cannot be read', () => {
  it('refuses a FIFO named like YAML without blocking on it', async () => {
    const errors = await afterReload(() => execFileSync('mkfifo', [join(server.fixturesDir, 'pipe.yaml')]));
    expect(errors).toEqual([{ file: expect.stringMatching(/pipe\.yaml$/), line: 1, col: 1, message: 'is not a regular file and is not loaded' }]);
    expect(await ping()).toBe('pong');
    await restore('pipe.yaml');
  });

  it('refuses a dangling link and a link loop', async () => {
    const errors = await afterReload(() => {
      symlinkSync(join(server.fixturesDir, 'nowhere.yaml'), join(server.fixturesDir, 'dangling.yaml'));
      symlinkSync(join(server.fixturesDir, 'loop-b.yaml'), join(server.fixturesDir, 'loop-a.yaml'));
      symlinkSync(join(server.fixturesDir, 'loop-a.yaml'), join(server.fixturesDir, 'loop-b.yaml'));
    });
    expect(errors).toEqual([
      { file: expect.stringMatching(/dangling\.yaml$/), line: 1, col: 1, message: expect.stringMatching(/^cannot be read: ENOENT/) },
      { file: expect.stringMatching(/loop-a\.yaml$/), line: 1, col: 1, message: expect.stringMatching(/^cannot be read: ELOOP/) },
      { file: expect.stringMatching(/loop-b\.yaml$/), line: 1, col: 1, message: expect.stringMatching(/^cannot be read: ELOOP/) },
    ]);
    expect(await ping()).toBe('pong');
    await restore('dangling.yaml', 'loop-a.yaml', 'loop-b.yaml');
  });

  it('refuses a file reference that names a directory', async () => {
    mkdirSync(join(server.fixturesDir, 'pictures'), { recursive: true });
    await server.writeFixture('dir-ref.yaml', images('pictures'));
    expect(await problems()).toEqual([{ file: expect.stringMatching(/dir-ref\.yaml$/), line: 4, col: 13, message: 'images[0].reply.file: "pictures" is not a file' }]);
    await restore('dir-ref.yaml');
  });

  // Root reads a file whatever its mode (as in this project's container), so the mode only
  // decides where the process cannot read the file; the FIFO and link cases above always can.
  it('refuses a file the process may not read, and loads it where mode bits do not stop it', async () => {
    const path = join(server.fixturesDir, 'locked.yaml');
    const errors = await afterReload(() => {
      writeFileSync(path, GOOD.replace('good', 'locked').replace('ping', 'locked'));
      chmodSync(path, 0);
    });
    if (readable(path)) expect(errors).toEqual([]);
    else expect(errors).toEqual([{ file: expect.stringMatching(/locked\.yaml$/), line: 1, col: 1, message: expect.stringMatching(/^cannot be read: EACCES/) }]);
    expect(await ping()).toBe('pong');
    await restore('locked.yaml');
  });
});

describe('__proto__, constructor and prototype keys in YAML', () => {
  it('refuses __proto__ at its line and column, in fixtures and scenarios', async () => {
    await server.writeFixture('proto.yaml', 'chat:\n  - reply:\n      tool_calls:\n        - name: f\n          arguments: { __proto__: { polluted: yes } }\n');
    expect(await problems()).toEqual([{ file: expect.stringMatching(/proto\.yaml$/), line: 5, col: 24, message: '"__proto__" is not allowed as a key' }]);
    await restore('proto.yaml');
    await server.writeScenario('proto.yaml', 'scenarios:\n  - name: p\n    steps:\n      - error: invalid_request\n        body: { __proto__: { polluted: yes } }\n');
    expect(await problems()).toEqual([{ file: expect.stringMatching(/scenarios\/proto\.yaml$/), line: 5, col: 17, message: '"__proto__" is not allowed as a key' }]);
    const before = server.reloads();
    execFileSync('rm', [join(server.scenariosDir, 'proto.yaml')]);
    await server.waitForReload(before);
    expectPrototypesClean();
  });

  it('keeps constructor and prototype keys as plain data', async () => {
    await server.writeFixture(
      'data.yaml',
      'chat:\n  - match: { contains: "shape" }\n    reply:\n      tool_calls:\n        - name: f\n          arguments: { constructor: { prototype: { polluted: yes } } }\n',
    );
    expect(await problems()).toEqual([]);
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'shape' }] });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ constructor: { prototype: { polluted: 'yes' } } });
    expectPrototypesClean();
    await restore('data.yaml');
  });
});

/** The lines `validate` prints; it must exit 1. */
function validate(fixtures: string, scenarios: string): string[] {
  const result = spawnSync(process.execPath, [...COMMAND, 'validate', '--fixtures', fixtures, '--scenarios', scenarios], { encoding: 'utf8', timeout: 15_000 });
  expect(result.status, result.stderr).toBe(1);
  return result.stderr.trim().split('\n');
}

describe('validate', () => {
  it('names every refused file with file:line:col and exits 1', () => {
    const dir = tempDir('mgm-validate-');
    const fixtures = join(dir, 'fixtures');
    const scenarios = join(dir, 'scenarios');
    mkdirSync(fixtures);
    mkdirSync(scenarios);
    writeFileSync(join(fixtures, 'good.yaml'), GOOD);
    symlinkSync(join(outside, 'evil.yaml'), join(fixtures, 'evil.yaml'));
    execFileSync('mkfifo', [join(fixtures, 'pipe.yaml')]);
    symlinkSync(join(outside, 'evil-scenarios.yaml'), join(scenarios, 'evil.yaml'));
    expect(validate(fixtures, scenarios)).toEqual([
      expect.stringMatching(/fixtures\/evil\.yaml:1:1: links outside the directory and is not loaded$/),
      expect.stringMatching(/fixtures\/pipe\.yaml:1:1: is not a regular file and is not loaded$/),
      expect.stringMatching(/scenarios\/evil\.yaml:1:1: links outside the directory and is not loaded$/),
    ]);
    const clean = tempDir('mgm-validate-');
    writeFileSync(join(clean, 'up.yaml'), images('../outside.png'));
    expect(validate(clean, tempDir('mgm-validate-'))).toEqual([
      expect.stringMatching(/up\.yaml:4:13: images\[0\]\.reply\.file: "\.\.\/outside\.png" is outside the fixtures directory$/),
    ]);
  });
});
