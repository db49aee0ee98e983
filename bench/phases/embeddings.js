// Embeddings: one request of 2,048 inputs of 100 words each (base64, as the openai SDK asks by
// default), answered whole, and single-input requests against a chat fixture hit on the same
// mock, in alternating rounds, so a door that computes vectors costs about what a chat hit does.
import { join } from 'node:path';
import { measure } from '../lib/load.js';
import { serverLog, startMock } from '../lib/servers.js';
import { best, median } from '../lib/stats.js';
import { emptyScenarios, HEADERS, ticketRequests, writeFixtures } from '../lib/workload.js';

const PATH = '/v1/embeddings';
const MODEL = 'text-embedding-3-small';
const WORDS = 'parcel damaged refund courier label ticket photo order replacement voucher agent answer morning store opens nine days purchase issued within'.split(' ');

/** 100 words, different for every index, so no two inputs share a vector. */
function passage(index) {
  return Array.from({ length: 100 }, (_, i) => `${WORDS[(index * 7 + i * 3) % WORDS.length]}${i % 10 === 0 ? index : ''}`).join(' ');
}

async function batch(url, body) {
  const started = performance.now();
  const response = await fetch(`${url}${PATH}`, { method: 'POST', headers: HEADERS, body });
  const answer = await response.json();
  if (response.status !== 200 || answer.data.length !== 2048) throw new Error(`the 2,048-input batch answered ${response.status}`);
  return performance.now() - started;
}

/** @param settings `{ batches, rounds, warmup, duration, connections }` */
export async function embeddings(root, settings) {
  const fixtures = join(root, 'embeddings-fixtures');
  writeFixtures(fixtures, 10);
  const server = await startMock({ fixtures, scenarios: emptyScenarios(root), logLevel: 'silent' }, serverLog(root));
  try {
    const big = JSON.stringify({ model: MODEL, input: Array.from({ length: 2048 }, (_, i) => passage(i)), encoding_format: 'base64' });
    await batch(server.url, big);
    const batchMs = [];
    for (let i = 0; i < settings.batches; i++) batchMs.push(await batch(server.url, big));
    // Distinct requests, as the chat workload sends: nothing answers from a cache of identical ones.
    const single = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ model: MODEL, input: `Where do I send damaged parcel number ${i} back?`, encoding_format: 'base64' }));
    const chat = ticketRequests(9);
    const runs = { embeddings: [], chat: [] };
    const { batches: _, rounds, ...load } = settings;
    for (let round = 0; round < rounds; round++) {
      runs.embeddings.push(await measure(server, single, { ...load, path: PATH }));
      runs.chat.push(await measure(server, chat, load));
    }
    return { batchMs: median(batchMs), batchRuns: batchMs, single: best(runs.embeddings, 'requestsPerSecond'), chat: best(runs.chat, 'requestsPerSecond') };
  } finally {
    await server.stop();
  }
}
