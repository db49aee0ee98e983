// The other doors: one embeddings request of 2,048 inputs of 100 words each (base64, as the
// openai SDK asks by default), answered whole; then each door a RAG app or an older integration
// calls (embeddings of one input, moderation, legacy completions, rerank, a file read) against a
// chat fixture hit on the same mock, in alternating rounds so that other load hits all alike: a
// door costs about what a chat hit does.
import { join } from 'node:path';
import { sampleJson } from '../lib/client.js';
import { fire, measure } from '../lib/load.js';
import { serverLog, startMock } from '../lib/servers.js';
import { best, median } from '../lib/stats.js';
import { CHAT_PATH, emptyScenarios, HEADERS, ticketRef, ticketReply, ticketRequests, writeFixtures } from '../lib/workload.js';

const EMBEDDINGS = '/v1/embeddings';
const EMBEDDING_MODEL = 'text-embedding-3-small';
const WORDS = 'parcel damaged refund courier label ticket photo order replacement voucher agent answer morning store opens nine days purchase issued within'.split(' ');
/** The ticket the chat hit and the legacy completion name: the last of the ten fixtures. */
const TICKET = 9;
const DOCUMENTS = ['Refunds are issued within 30 days of purchase.', 'Keep the damaged parcel, its box and the label.', 'Our store opens at nine every morning.'];

/** 100 words, different for every index, so no two inputs share a vector. */
function passage(index) {
  return Array.from({ length: 100 }, (_, i) => `${WORDS[(index * 7 + i * 3) % WORDS.length]}${i % 10 === 0 ? index : ''}`).join(' ');
}

/** Distinct bodies, as the chat workload sends: nothing answers from a cache of identical ones. */
function bodies(make) {
  return Array.from({ length: 1000 }, (_, i) => JSON.stringify(make(i)));
}

const question = (i) => `Where do I send damaged parcel number ${i} back?`;

/**
 * Each door: its row's name, what it is asked and what a right answer looks like. `files` reads
 * the file `fileId` (uploaded first), so it is asked with GET and no body.
 */
function doors(fileId) {
  return {
    chat: {
      path: CHAT_PATH,
      bodies: ticketRequests(TICKET),
      check: (answer) => answer.choices[0].message.content === ticketReply(TICKET),
    },
    embeddings: {
      row: 'embeddings req/s, one input',
      path: EMBEDDINGS,
      bodies: bodies((i) => ({ model: EMBEDDING_MODEL, input: question(i), encoding_format: 'base64' })),
      check: (answer) => answer.object === 'list' && answer.data.length === 1 && typeof answer.data[0].embedding === 'string',
    },
    moderations: {
      row: 'moderation req/s, one input',
      path: '/v1/moderations',
      bodies: bodies((i) => ({ model: 'omni-moderation-latest', input: question(i) })),
      check: (answer) => answer.results.length === 1 && answer.results[0].flagged === false,
    },
    completions: {
      row: 'legacy completions req/s, fixture hit',
      path: '/v1/completions',
      // max_tokens: the vendor's default is 16; the chat hit answers the fixture's whole text.
      bodies: bodies((i) => ({ model: 'gpt-3.5-turbo-instruct', prompt: `About my ticket ${ticketRef(TICKET)} (order ${1_000_000 + i}): the box is torn.`, max_tokens: 256 })),
      check: (answer) => answer.object === 'text_completion' && answer.choices[0].text === ticketReply(TICKET),
    },
    rerank: {
      row: `rerank req/s, ${DOCUMENTS.length} documents`,
      path: '/v1/rerank',
      bodies: bodies((i) => ({ model: 'rerank-v3.5', query: question(i), documents: DOCUMENTS })),
      check: (answer) => answer.results.length === DOCUMENTS.length && answer.results.every((result) => typeof result.relevance_score === 'number'),
    },
    files: {
      row: 'file read req/s, GET /v1/files/{id}',
      path: `/v1/files/${fileId}`,
      method: 'GET',
      bodies: [undefined],
      check: (answer) => answer.object === 'file' && answer.id === fileId,
    },
  };
}

async function batch(url, body) {
  const started = performance.now();
  const response = await fetch(`${url}${EMBEDDINGS}`, { method: 'POST', headers: HEADERS, body });
  const answer = await response.json();
  if (response.status !== 200 || answer.data.length !== 2048) throw new Error(`the 2,048-input batch answered ${response.status}`);
  return performance.now() - started;
}

async function uploadFile(url) {
  const form = new FormData();
  form.append('purpose', 'assistants');
  form.append('file', new Blob(['Keep the damaged parcel, its box and the label.\n']), 'returns.txt');
  const response = await fetch(`${url}/v1/files`, { method: 'POST', headers: { authorization: HEADERS.authorization }, body: form });
  if (response.status !== 200) throw new Error(`the file upload answered ${response.status}: ${await response.text()}`);
  return (await response.json()).id;
}

/** @param settings `{ batches, rounds, warmup, duration, connections }` */
export async function otherDoors(root, settings) {
  const fixtures = join(root, 'doors-fixtures');
  writeFixtures(fixtures, 10);
  const server = await startMock({ fixtures, scenarios: emptyScenarios(root), logLevel: 'silent' }, serverLog(root));
  try {
    const targets = doors(await uploadFile(server.url));
    for (const { path, method, bodies: [body], check } of Object.values(targets)) await sampleJson(server.url, path, { method, body }, check);
    const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    const { batches: _, rounds, ...load } = settings;
    // One unmeasured pass of every door first: what they share (HTTP, routing, the journal) is
    // then warm for all, not only for those after the first.
    for (const { path, method, bodies: list } of Object.values(targets)) await fire(server.url, list, { connections: load.connections, duration: load.warmup, path, method });
    for (let round = 0; round < rounds; round++) {
      for (const [name, { path, method, bodies: list }] of Object.entries(targets)) runs[name].push(await measure(server, list, { ...load, path, method }));
    }
    // The batch last: the garbage of its 16 MB answers would otherwise fall on the first round.
    const big = JSON.stringify({ model: EMBEDDING_MODEL, input: Array.from({ length: 2048 }, (_, i) => passage(i)), encoding_format: 'base64' });
    await batch(server.url, big);
    const batchMs = [];
    for (let i = 0; i < settings.batches; i++) batchMs.push(await batch(server.url, big));
    const { chat, ...others } = Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, best(list, 'requestsPerSecond')]));
    return {
      batchMs: median(batchMs),
      batchRuns: batchMs,
      connections: settings.connections,
      chat,
      doors: Object.fromEntries(Object.entries(others).map(([name, run]) => [name, { row: targets[name].row, ...run }])),
      runs,
    };
  } finally {
    await server.stop();
  }
}
