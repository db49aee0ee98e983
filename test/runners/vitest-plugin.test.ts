// The vitest plugin as a user installs it: the package packed with `npm pack`, unpacked into a
// scratch project's node_modules, and that project's suite run by vitest with the two documented
// lines. Two concurrent tests get their own sessions, a failing verify fails its test with the
// oracle's message, and no mock is left listening after the run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
// Inside the repository, so the package's own dependencies and vitest resolve from its node_modules.
const scratch = mkdtempSync(join(ROOT, 'test', '.scratch-vitest-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SUITE = `
import OpenAI from 'openai';
import { writeFileSync } from 'node:fs';
import { test, expect, describe } from 'model-gateway-mock/vitest';

describe.concurrent('two tests, one mock', () => {
  for (const word of ['alpha', 'beta']) {
    test(\`\${word} sees only its own requests\`, async ({ gateway }) => {
      writeFileSync('mock-url.txt', gateway.url);
      const client = new OpenAI({ baseURL: \`\${gateway.url}/v1\`, apiKey: 'test', defaultHeaders: gateway.headers, maxRetries: 0 });
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: word }] });
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: word + ' again' }] });
      const journal = await gateway.journal();
      expect(journal.map((entry) => entry.session)).toEqual([gateway.session, gateway.session]);
      await gateway.assertVerified([{ requests: { text: word }, count: 2 }]);
      // Beside the next test's 3.6 MB of uploads, on a loaded machine, the session's announce and
      // four round trips outlast vitest's default 5 s: a timeout here said nothing about sessions.
    }, 60_000);
  }

  test('journal() gives every entry, however many pages they take', async ({ gateway }) => {
    const client = new OpenAI({ baseURL: \`\${gateway.url}/v1\`, apiKey: 'test', defaultHeaders: gateway.headers, maxRetries: 0 });
    // Each entry weighs about 2.7 MB in a page (its body, and its message as the oracle keeps it): two pages.
    for (let i = 0; i < 4; i += 1) await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: \`long \${i} \${'l'.repeat(900 * 1024)}\` }] });
    expect((await gateway.journal()).length).toBe(4);
  }, 60_000);

  test('a verify the code does not meet fails', async ({ gateway }) => {
    await gateway.assertVerified([{ requests: { path: '/v1/embeddings' } }]);
  });
});
`;

describe('model-gateway-mock/vitest', () => {
  it('runs a packed suite with its own session per test and fails a test whose verify fails', async () => {
    // `npm install` built dist/ (prepare); it is built again only when a source changed since.
    await ensureBuilt();
    const packed = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', scratch], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!;
    const installed = join(scratch, 'node_modules', 'model-gateway-mock');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(scratch, packed), '-C', installed, '--strip-components=1']);
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    writeFileSync(join(scratch, 'vitest.config.js'), "export default { test: { globalSetup: ['model-gateway-mock/vitest/setup'], include: ['*.test.js'] } };\n");
    writeFileSync(join(scratch, 'gateway.test.js'), SUITE);

    const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--root', scratch, '--reporter=json', '--outputFile=report.json'], { cwd: scratch, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(scratch, 'report.json'), 'utf8')) as {
      testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
    };
    const results = report.testResults.flatMap((file) => file.assertionResults);
    const messages = results.map((r) => `${r.title}: ${r.failureMessages.join('\n')}`).join('\n');
    expect(Object.fromEntries(results.map((r) => [r.title, r.status])), messages).toEqual({
      'alpha sees only its own requests': 'passed',
      'beta sees only its own requests': 'passed',
      'journal() gives every entry, however many pages they take': 'passed',
      'a verify the code does not meet fails': 'failed',
    });
    expect(results.find((r) => r.status === 'failed')!.failureMessages.join('\n')).toContain('/v1/embeddings');
    const gone = await fetch(readFileSync(join(scratch, 'mock-url.txt'), 'utf8')).then(
      () => 'still listening',
      (error: Error) => (error.cause as { code?: string }).code,
    );
    expect(gone).toBe('ECONNREFUSED');
  }, 300_000);
});
