// The findings of issue 40 replayed against a built mock, one request (or one run of them) at a
// time, each as the bounded request it now is: refused at its input bound, or, for work that
// stays large after its bound, the largest request the bound accepts. For each the server
// reports its longest event-loop stall and its peak RSS (measured in its own process,
// lib/server-child.js) and the bench keeps the status it answered.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startMock } from '../lib/servers.js';
import { CHAT_PATH, emptyScenarios, HEADERS, MODEL, writeFixtures } from '../lib/workload.js';

const KEY = { authorization: 'Bearer sk-bench' };

function chunk(id, body) {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

/** A 58-byte WAV of 8-bit mono at 1 Hz: two samples, and a `fact` chunk claiming 4,000,000 (46 days). */
function lyingWav() {
  const format = Buffer.alloc(16);
  format.writeUInt16LE(1, 0);
  format.writeUInt16LE(1, 2);
  format.writeUInt32LE(1, 4);
  format.writeUInt32LE(1, 8);
  format.writeUInt16LE(1, 12);
  format.writeUInt16LE(8, 14);
  const body = Buffer.concat([Buffer.from('WAVE'), chunk('fmt ', format), chunk('fact', Buffer.from(Uint32Array.of(4_000_000).buffer)), chunk('data', Buffer.alloc(2))]);
  return Buffer.concat([Buffer.from('RIFF'), Buffer.from(Uint32Array.of(body.length).buffer), body]);
}

/** A 42-byte FLAC: a STREAMINFO claiming 2^36 - 1 samples at 1 Hz, and no frames. */
function lyingFlac() {
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0);
  info.writeUInt16BE(4096, 2);
  info[12] = (1 << 4) | (0 << 1) | 0; // 1 Hz, mono, 16-bit
  info[13] = (15 << 4) | 0x0f;
  info.writeUInt32BE(0xffffffff, 14);
  return Buffer.concat([Buffer.from('fLaC'), Buffer.from([0x80, 0, 0, 34]), info]);
}

const words = (count, salt = '') => Array.from({ length: count }, (_, i) => `${['parcel', 'ticket', 'refund', 'courier', 'label'][i % 5]}${salt}${i % 17}`).join(' ');

async function post(url, path, body, headers = {}) {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { ...HEADERS, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  await response.arrayBuffer();
  return response.status;
}

async function upload(url, path, fields, file, filename, headers = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([file]), filename);
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { ...KEY, ...headers }, body: form });
  await response.arrayBuffer();
  return response.status;
}

/** `count` chat requests in `session`, 16 at a time: a journal to verify. */
async function fillJournal(url, session, count) {
  for (let i = 0; i < count; i += 16) {
    await Promise.all(
      Array.from({ length: Math.min(16, count - i) }, (_, k) =>
        post(url, CHAT_PATH, { model: MODEL, temperature: (i + k) % 10, messages: [{ role: 'user', content: `question ${i + k}` }] }, { 'x-mock-session': session }),
      ),
    );
  }
}

const chat = (content, extra = {}) => ({ model: MODEL, messages: [{ role: 'user', content }], ...extra });

/** Each case: what it sends, and the statuses it is expected to answer. */
const CASES = {
  // The worst bodies for the parser and the tokenizer (test/hardening/limits.test.ts checks what they answer).
  'chat: 100,000 levels of nesting': (url) => post(url, CHAT_PATH, JSON.stringify(chat('hi', { metadata: '__DEEP__' })).replace('"__DEEP__"', '['.repeat(100_000) + ']'.repeat(100_000))),
  // Looked at before it is parsed: V8 parses a level in about a microsecond.
  'chat: 1,000,000 levels of nesting (2 MB)': (url) => post(url, CHAT_PATH, JSON.stringify(chat('hi', { metadata: '__DEEP__' })).replace('"__DEEP__"', '['.repeat(1_000_000) + ']'.repeat(1_000_000))),
  'chat: 8 MB of base64': (url) => post(url, CHAT_PATH, chat(randomBytes(6 * 1024 * 1024).toString('base64'))),
  'chat: 4 MB of one letter': (url) => post(url, CHAT_PATH, chat('z'.repeat(4 * 1024 * 1024))),
  'transcription: a 58-byte WAV claiming 46 days': (url) => upload(url, '/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'verbose_json' }, lyingWav(), 'claim.wav'),
  'transcription: a 42-byte FLAC claiming 2^36 samples': (url) => upload(url, '/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'verbose_json' }, lyingFlac(), 'claim.flac'),
  'completions: 2,048 prompts x n 128 with echo (1 MB)': (url) => post(url, '/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: Array.from({ length: 2048 }, (_, i) => words(70, `p${i}`)), n: 128, echo: true }),
  'images: n 128 at 4096x4096': (url) => post(url, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'a lighthouse', n: 128, size: '4096x4096' }),
  'images: one picture at 4096x4096 (the bound)': (url) => post(url, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'a lighthouse at dusk', n: 1, size: '4096x4096' }),
  'moderations: 200,000 inputs': (url) => post(url, '/v1/moderations', { model: 'omni-moderation-latest', input: Array.from({ length: 200_000 }, (_, i) => `hi ${i}`) }),
  // 23 KB, so the 2,048 fit the default 50 MB body limit: a 413 at the door's own 4 MB, unparsed.
  'embeddings: 2,048 x 23 KB': (url) => post(url, '/v1/embeddings', { model: 'text-embedding-3-small', input: Array.from({ length: 2048 }, (_, i) => words(4000, `e${i}`).slice(0, 23 * 1024)), encoding_format: 'base64' }),
  'embeddings: 2,048 inputs of ~140 tokens (the token bound)': (url) => post(url, '/v1/embeddings', { model: 'text-embedding-3-small', input: Array.from({ length: 2048 }, (_, i) => words(35, `f${i}`)), encoding_format: 'base64' }),
  'rerank: 1,000 x 48 KB': (url) => post(url, '/v2/rerank', { model: 'rerank-v3.5', query: 'a damaged parcel', documents: Array.from({ length: 1000 }, (_, i) => words(8000, `r${i}`).slice(0, 48 * 1024)) }),
  'rerank: 1,000 documents of ~280 tokens (the token bound)': (url) => post(url, '/v2/rerank', { model: 'rerank-v3.5', query: 'a damaged parcel', documents: Array.from({ length: 1000 }, (_, i) => words(70, `s${i}`)) }),
  'files: a batch file of 40 MB of newlines': (url) => upload(url, '/v1/files', { purpose: 'batch' }, Buffer.alloc(40 * 2 ** 20, '\n'), 'lines.jsonl'),
  'speech: 4,096 characters of one-letter words at speed 0.25, wav': (url) => post(url, '/v1/audio/speech', { model: 'tts-1', voice: 'alloy', input: 'a '.repeat(2048), speed: 0.25, response_format: 'wav' }),
  'verify: 100 body filters over a journal of 5,000 requests': async (url) => {
    await fillJournal(url, 'long', 5000);
    const expect = Array.from({ length: 100 }, (_, i) => ({ requests: { body: { temperature: i % 12 } }, count: { min: 1 } }));
    return post(`${url}/__admin`, '/verify', { session: 'long', expect });
  },
  'files: 9 sessions upload 15 MB each; another keeps its journal': async (url) => {
    await post(url, CHAT_PATH, { model: MODEL, messages: [{ role: 'user', content: 'keep me' }] }, { 'x-mock-session': 'keeper' });
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push(await upload(url, '/v1/files', { purpose: 'user_data' }, Buffer.alloc(15 * 2 ** 20, 'f'), 'big.txt', { 'x-mock-session': `filler-${i}` }));
    const response = await fetch(`${url}/__admin/verify`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ session: 'keeper', expect: [{ requests: {}, count: { min: 1 } }] }) });
    const kept = (await response.json()).ok;
    return `${[...new Set(statuses)].join('/')}, journal ${kept ? 'kept' : 'LOST'}`;
  },
};

/** Runs `step` on a freshly reset server: what it answered, and the server's longest stall and peak RSS meanwhile. */
async function measured(server, step) {
  await server.reset();
  const started = performance.now();
  const status = await step(server.url);
  const { lagMaxMs, stallCpuMaxMs, peakRssMb } = await server.stats();
  return { status, lagMaxMs, stallCpuMaxMs, peakRssMb, ms: performance.now() - started };
}

/** Every case in turn on one mock at the default budgets (`--memory-limit` 128 MB). */
export async function hostileDoors(root) {
  const fixtures = join(root, 'hostile-doors-fixtures');
  writeFixtures(fixtures, 10);
  const server = await startMock({ fixtures, scenarios: emptyScenarios(root) });
  try {
    // Warm, as the soak is: the tokenizer's tables load after listening.
    await post(server.url, CHAT_PATH, { model: MODEL, messages: [{ role: 'user', content: 'warming up' }] });
    const cases = {};
    for (const [name, step] of Object.entries(CASES)) {
      process.stderr.write(`  hostile doors: ${name}...\n`);
      cases[name] = await measured(server, step);
    }
    const all = Object.values(cases);
    return { cases, lagMaxMs: Math.max(...all.map((c) => c.lagMaxMs)), peakRssMb: Math.max(...all.map((c) => c.peakRssMb)) };
  } finally {
    await server.stop();
  }
}
