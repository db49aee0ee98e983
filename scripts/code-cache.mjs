// The command's code cache (dist/command.cache, read by src/command-script.ts): the built command
// is started as a user starts it, asked one chat request that a shipped fixture answers and the
// model list (through the Koa app), and ended; as it exits it writes V8's cache of everything
// compiled by then, so a start compiles neither the script's top level nor the functions of its
// first answer. Its local CA is made in a folder of its own, removed after. A cache that could not
// be made is only a slower start: the build goes on.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WRITE_CACHE_ENV } from '../dist/command-script.js';

const root = new URL('..', import.meta.url).pathname;
const cacheFile = join(root, 'dist', 'command.cache');
const data = mkdtempSync(join(tmpdir(), 'mgm-code-cache-'));

rmSync(cacheFile, { force: true });
const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), '--port', '0', '--exit-with-stdin'], {
  cwd: data,
  env: { ...process.env, [WRITE_CACHE_ENV]: cacheFile, XDG_DATA_HOME: data },
  stdio: ['pipe', 'pipe', 'inherit'],
});
// A start that hangs ends the step (as a failed one), not the build.
const giveUp = setTimeout(() => child.kill(), 60_000);
try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const listening = /listening on (http:\/\/\S+)/.exec(out);
      if (listening) resolve(listening[1]);
    });
    child.once('exit', () => reject(new Error(`the command ended before listening:\n${out}`)));
  });
  const answer = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-code-cache' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
  });
  await answer.text();
  if (answer.status !== 200) throw new Error(`the first answer was a ${answer.status}`);
  // A request only the Koa app answers: the app is built at the first such request (server/listener.ts),
  // and its functions compiled then go into the cache too, for a start whose first request is one.
  const models = await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer sk-code-cache' } });
  await models.text();
  if (models.status !== 200) throw new Error(`the model list was a ${models.status}`);
  child.stdin.end();
  await once(child, 'exit');
} catch (error) {
  child.kill();
  console.error(`no code cache: ${error.message}`);
} finally {
  clearTimeout(giveUp);
  rmSync(data, { recursive: true, force: true });
}
