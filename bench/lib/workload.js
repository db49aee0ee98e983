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

function ticketFixture(index) {
  const ref = ticketRef(index);
  return [
    `  - name: ticket-${ref}`,
    `    match: { contains: "${ref}" }`,
    '    reply:',
    `      text: "Ticket ${ref} is logged. A support agent will reply within one business day; meanwhile, keep the damaged parcel and its label."`,
  ].join('\n');
}

/** About sixty tokens: long enough that a paced stream lasts two seconds, like a short real answer. */
export const STREAM_TEXT =
  'Streaming is how a chat model shows its answer while it is still writing: the first words arrive after a short pause, ' +
  'then the rest follow token by token, so the reader can start long before the end. This reply is about as long as a short real one.';

const STREAM_FIXTURE = ['  - name: stream-probe', '    match: { contains: "stream-probe" }', '    reply:', `      text: "${STREAM_TEXT}"`].join(
  '\n',
);

/**
 * Writes `count` ticket fixtures into `dir`, 1,000 per file (`chat-00.yaml`, `chat-01.yaml`...),
 * plus the stream fixture in a file of its own that sorts first. Files load in path order, so the
 * ticket with the highest number is the last fixture of all.
 */
export function writeFixtures(dir, count) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a-stream.yaml'), `chat:\n${STREAM_FIXTURE}\n`);
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

/** The reload probe: a fixture whose reply carries a version number the poller looks for. */
export function reloadFixture(version) {
  return `chat:\n  - name: reload-probe\n    match: { contains: "reload-probe" }\n    reply:\n      text: "reload version ${version}"\n`;
}

export function reloadRequest() {
  return JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'reload-probe: which version is live?' }] });
}
