// Several fixtures directories at once (as repeated --fixtures give them): sections merge in the
// order given, each file's references resolve in its own directory; a directory that does not
// exist stops the start.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/index.js';

const PNG = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'media', 'sample-image.png'));

function dir(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'mgm-dirs-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  return root;
}

describe('several fixtures directories', () => {
  it('merges their sections in order and resolves each file reference in its own directory', async () => {
    const first = dir({ 'chat.yaml': 'chat:\n  - name: first-greeting\n    match: { contains: hello }\n    reply: { text: "From the first." }\n' });
    const second = dir({
      'more.yaml': 'chat:\n  - name: second-greeting\n    match: { contains: hello }\n    reply: { text: "From the second." }\nimages:\n  - name: logo\n    reply: { file: media/logo.png }\n',
      'media/logo.png': PNG,
    });
    const server = await startMockServer({ fixtures: [first, second], scenarios: dir({}), watch: false });
    try {
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
      const chat = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
      expect(chat.choices[0]!.message.content).toBe('From the first.');
      const image = await client.images.generate({ model: 'gpt-image-1', prompt: 'a logo' });
      expect(Buffer.from(image.data![0]!.b64_json!, 'base64').equals(PNG)).toBe(true);
      const listed = (await (await fetch(`${server.url}/__admin/fixtures`)).json()) as { fixtures: Array<{ name: string }> };
      expect(listed.fixtures.map((f) => f.name)).toEqual(['first-greeting', 'second-greeting', 'logo']);
      expect(server.summary()).toMatch(/^loaded 2 files: 3 fixtures, 0 scenarios, \d+ models; open mode; inspector http:\/\/127\.0\.0\.1:\d+\/__admin\/ui$/);
    } finally {
      await server.close();
    }
  });

  it('rejects the start, naming a directory that does not exist', async () => {
    const missing = join(tmpdir(), 'mgm-missing-dir', 'scenarios');
    await expect(startMockServer({ fixtures: dir({}), scenarios: missing })).rejects.toThrow(`${missing}:1:1: the scenarios directory does not exist`);
  });
});
