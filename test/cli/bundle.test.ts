// The command as the package's bin runs it: dist/cli.js runs one bundled script, dist/command.cjs
// (scripts/bundle.mjs), with the parts loaded on first use evaluated at that use, in chunks of their
// own or left to Node. Every such part answers
// through the built command as through the sources: the shipped catalog and inspector page (found
// from a chunk's place), the audio codecs and the transcriber, a WebP picture, the metrics library
// and the MCP endpoint with the package's version.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '../helpers/audio.js';
import { ensureBuilt, ROOT } from '../helpers/built.js';
import { serveWith, tempDir, type ServingMock } from '../hardening/cli-run.js';

let mock: ServingMock;
let client: OpenAI;

beforeAll(async () => {
  await ensureBuilt();
  mock = await serveWith([join(ROOT, 'dist', 'cli.js')], '--latency', 'none', '--no-watch');
  client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
}, 300_000);

afterAll(() => {
  mock?.child.kill();
});

/** What the build says each file of the bundle holds (scripts/bundle.mjs), by its path under dist/. */
type Contents = Record<string, { imports: string[]; packages: string[] }>;

/** The files a start evaluates (dist/cli.js and what it runs, transitively), and the packages whose code they evaluate. */
function startFiles(): { files: string[]; packages: Set<string> } {
  const contents = JSON.parse(readFileSync(join(ROOT, 'dist', 'chunks', 'contents.json'), 'utf8')) as Contents;
  const files = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    contents[file]!.imports.forEach(visit);
  };
  visit('cli.js');
  return { files: [...files], packages: new Set([...files].flatMap((file) => contents[file]!.packages)) };
}

describe('the bundled command', () => {
  it('starts without faker, ajv, ws, jpeg-js, re2js or yaml, and loads them from the package at their first use', async () => {
    const { files, packages } = startFiles();
    expect(files).toEqual(['cli.js', 'command.cjs']);
    expect(packages).toContain('commander');
    for (const name of ['@faker-js/faker', 'ajv', 'ws', 'jpeg-js', 're2js', 'yaml', 'node-forge']) expect(packages).not.toContain(name);
    // The shipped weather fixture's pattern, compiled at its first run, names the city it captured.
    const call = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'What is the weather in Lisbon?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    });
    const toolCall = call.choices[0]!.message.tool_calls![0]!;
    expect(toolCall.type === 'function' && JSON.parse(toolCall.function.arguments)).toEqual({ city: 'Lisbon' });
    // An unmatched prompt is answered with generated prose (faker); a JPEG is encoded by jpeg-js.
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'nothing matches this, a bundled test prompt' }] });
    expect(completion.choices[0]!.message.content).toMatch(/\w+ \w+/);
    const image = await client.images.generate({ model: 'gpt-image-1', prompt: 'a bundled test picture', output_format: 'jpeg', size: '1024x1024' });
    expect(Buffer.from(image.data![0]!.b64_json!, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it("reads a user's YAML files without printing the yaml library's debug output, whatever the environment", () => {
    // The library prints every token when LOG_TOKENS is set, and every document part when
    // LOG_STREAM is: names general enough to be set for something else.
    const fixtures = tempDir({ 'hello.yaml': 'chat:\n  - match: { contains: "hello" }\n    reply: { text: "Hi." }\n' });
    const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'validate', '--fixtures', fixtures, '--scenarios', tempDir()], {
      encoding: 'utf8',
      env: { ...process.env, LOG_TOKENS: '1', LOG_STREAM: '1' },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('ok: 1 files\n');
    expect(run.stderr).toBe('');
  });

  it('answers chat from the shipped fixtures and lists the shipped catalog', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]!.message.content).toMatch(/\w/);
    const models = (await client.models.list()).data.map((model) => model.id);
    expect(models).toContain('gpt-4o-mini');
    expect(models).toContain('whisper-1');
  });

  it('speaks Ogg Opus that a decoder reads, and transcribes it back', async () => {
    const speech = Buffer.from(await (await client.audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'bundled words', response_format: 'opus' })).arrayBuffer());
    expect(probe(speech, 'ogg')).toMatchObject({ codec: 'opus', channels: 1 });
    const mp3 = Buffer.from(await (await client.audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'bundled words', response_format: 'mp3' })).arrayBuffer());
    const transcript = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(mp3, 'speech.mp3') });
    expect(transcript.text).toBe('bundled words');
  });

  it('types what it sends, and reads an upload as multipart, through the MIME table it loads on first use', async () => {
    const speech = await fetch(`${mock.url}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'typed words', response_format: 'flac' }),
    });
    expect(speech.headers.get('content-type')).toBe('audio/flac');
    const file = await client.files.create({ file: await toFile(Buffer.from('{"a":1}\n'), 'notes.jsonl'), purpose: 'user_data' });
    expect(file).toMatchObject({ filename: 'notes.jsonl', bytes: 8, purpose: 'user_data' });
  });

  it('paints a WebP picture', async () => {
    const picture = await client.images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse', output_format: 'webp' });
    const bytes = Buffer.from(picture.data![0]!.b64_json!, 'base64');
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('serves the inspector page, the metrics and the MCP endpoint with the package version', async () => {
    const page = await fetch(`${mock.url}/__admin/ui`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    const metrics = await (await fetch(`${mock.url}/__admin/metrics`)).text();
    expect(metrics).toMatch(/^mock_requests_total\{[^}]*route="\/v1\/chat\/completions"[^}]*\} \d+/m);
    const initialize = await fetch(`${mock.url}/__admin/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'bundle-test', version: '1' } } }),
    });
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(await initialize.text()).toContain(`"serverInfo":{"name":"model-gateway-mock","version":"${version}"}`);
  });
});
