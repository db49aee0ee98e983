// What the benchmark asks: the fixture files it generates and the requests it sends. Every
// measurement uses these, so the mock and the bare baseline answer the very same request.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MODEL = 'gpt-4o-mini';
export const HEADERS = { 'content-type': 'application/json', authorization: 'Bearer sk-bench' };
export const CHAT_PATH = '/v1/chat/completions';

const FIXTURES_PER_FILE = 1000;

/** `ref-00042`: fixed width, so no ticket reference is a substring of another. */
export function ticketRef(index) {
  return `ref-${String(index).padStart(5, '0')}`;
}

/** What every contender answers about a ticket. */
export function ticketReply(index) {
  return `Ticket ${ticketRef(index)} is logged. A support agent will reply within one business day; meanwhile, keep the damaged parcel and its label.`;
}

function textFixture(name, needle, text) {
  return [`  - name: ${name}`, `    match: { contains: "${needle}" }`, '    reply:', `      text: "${text}"`].join('\n');
}

function ticketFixture(index) {
  return textFixture(`ticket-${ticketRef(index)}`, ticketRef(index), ticketReply(index));
}

/** About sixty tokens: long enough that a paced stream lasts two seconds, like a short real answer. */
export const STREAM_TEXT =
  'Streaming is how a chat model shows its answer while it is still writing: the first words arrive after a short pause, ' +
  'then the rest follow token by token, so the reader can start long before the end. This reply is about as long as a short real one.';

/**
 * About 1 KB of text (no quotes, backslashes or braces, so it sits unescaped in the peers' JSON
 * and YAML templates): the reply of the stream workload the mock and its peers all run. The
 * peers' fixture files in bench/peers/ hold the same text; the bench checks every contender
 * streams exactly this.
 */
export const LONG_STREAM_TEXT =
  'A parcel that arrives damaged is handled in four steps, and none of them needs a phone call. First, keep the parcel, its box and the label ' +
  'exactly as they arrived: the carrier may ask for photos, and the label carries the route the parcel took. Second, open a ticket in the app ' +
  'or on the website, name the order number, and add two or three photos that show the damage from different sides. Third, choose what you ' +
  'would like: a replacement sent at once, a refund to the original payment method, or a voucher worth a little more than the order. Most ' +
  'people choose the replacement, which ships the same day when the item is in stock. Fourth, wait for the courier, who collects the damaged ' +
  'parcel at no cost within three working days; you do not need to print anything, since the courier brings a new label. If the damage hurt ' +
  'anyone or the parcel held food or medicine, say so in the ticket, and an agent calls you back within the hour. Everything else is ' +
  'answered by email within one business day, usually sooner.';

/** The peers' fixture files: the same tickets and the same long stream text, in their formats. */
export const PEER_FIXTURES = {
  aimock: new URL('../peers/aimock.json', import.meta.url).pathname,
  mockLlm: new URL('../peers/mock-llm.yaml', import.meta.url).pathname,
};

/**
 * aimock's fixture file for the paced streams, written into `dir`: STREAM_TEXT in pieces of
 * `chunkSize` characters, `ttftMs` before its first chunk and `chunkMs` before each later one
 * (aimock's `streamingProfile`, no jitter). Written at run time so it follows the mock's pacing.
 * @returns its path
 */
export function writeAimockPacedFixture(dir, { chunkSize, ttftMs, chunkMs }) {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'aimock-paced.json');
  const fixture = { match: { userMessage: 'stream-probe' }, response: { content: STREAM_TEXT }, chunkSize, streamingProfile: { ttft: ttftMs, tps: 1000 / chunkMs } };
  writeFileSync(path, `${JSON.stringify({ fixtures: [fixture] }, null, 2)}\n`);
  return path;
}

/**
 * Writes `count` ticket fixtures into `dir`, 1,000 per file (`chat-00.yaml`, `chat-01.yaml`...),
 * plus the two stream fixtures in a file of their own that sorts first. Files load in path order, so the
 * ticket with the highest number is the last fixture of all.
 */
export function writeFixtures(dir, count) {
  mkdirSync(dir, { recursive: true });
  const streamFixtures = [textFixture('stream-probe', 'stream-probe', STREAM_TEXT), textFixture('stream-1kb', 'stream-1kb', LONG_STREAM_TEXT)];
  writeFileSync(join(dir, 'a-stream.yaml'), `chat:\n${streamFixtures.join('\n')}\n`);
  for (let file = 0; file * FIXTURES_PER_FILE < count; file++) {
    const first = file * FIXTURES_PER_FILE;
    const last = Math.min(count, first + FIXTURES_PER_FILE);
    const entries = [];
    for (let i = first; i < last; i++) entries.push(ticketFixture(i));
    writeFileSync(join(dir, `chat-${String(file).padStart(2, '0')}.yaml`), `chat:\n${entries.join('\n')}\n`);
  }
}

/**
 * A support-desk question naming one ticket (and an order number), with a system prompt, as an
 * app would send it.
 */
export function ticketRequest(index, order = 0) {
  return JSON.stringify({
    model: MODEL,
    messages: [
      { role: 'system', content: 'You are the support assistant of a parcel delivery company. Answer briefly and politely.' },
      {
        role: 'user',
        content: `Hello, about my ticket ${ticketRef(index)} (order ${1_000_000 + order}): the parcel arrived with a torn box. What should I do now?`,
      },
    ],
    temperature: 0.2,
  });
}

/**
 * Distinct requests for the same ticket, differing in their order number, which a connection
 * sends in turn: nothing can answer them from a cache of identical requests.
 */
export function ticketRequests(index, count = 1000) {
  return Array.from({ length: count }, (_, order) => ticketRequest(index, order));
}

export function streamRequest() {
  return JSON.stringify({
    model: MODEL,
    stream: true,
    messages: [{ role: 'user', content: 'stream-probe: explain streaming in a few sentences.' }],
  });
}

/** The stream workload shared with the peers: every contender answers it with LONG_STREAM_TEXT. */
export function longStreamRequest() {
  return JSON.stringify({
    model: MODEL,
    stream: true,
    messages: [{ role: 'user', content: 'stream-1kb: what do I do with a damaged parcel?' }],
  });
}

/**
 * An empty scenarios directory for the mocks. It must exist: the mock watches a missing directory
 * through its parent, and would then reload on every change there (a server's log file, say).
 */
export function emptyScenarios(root) {
  const dir = join(root, 'no-scenarios');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The reload probe: a fixture whose reply carries a version number the poller looks for. */
export function reloadFixture(version) {
  return `chat:\n  - name: reload-probe\n    match: { contains: "reload-probe" }\n    reply:\n      text: "reload version ${version}"\n`;
}

export function reloadRequest() {
  return JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'reload-probe: which version is live?' }] });
}
