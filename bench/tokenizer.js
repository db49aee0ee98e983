// Counting speed of the mock's o200k_base tokenizer (dist/) against gpt-tokenizer's, the reference
// it is tested against, text by text: CPU milliseconds a count (median of timed rounds), and both
// counts, which must agree. `node bench/tokenizer.js` after `npm run build`.
import { readFileSync } from 'node:fs';
import { countTokens, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base';
import { countPlain } from '../dist/conversation/tokenizer.js';

const PLAIN = { disallowedSpecial: new Set() };
// As main used it (src/conversation/tokenizer.ts before the table): its merge cache went quadratic.
setMergeCacheSize(0);
const bytes = Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 7919 + (i >> 3)) % 256));
const TEXTS = {
  prose: 'The mock answers every request with a reply that looks like a real model would write it. '.repeat(2000),
  code: readFileSync(new URL('../dist/cli.js', import.meta.url), 'utf8').slice(0, 200_000),
  json: JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'], price: i * 1.5 }))),
  cjk: '日本語のテキストです。中文文本，한국어 텍스트。'.repeat(3000),
  emoji: '😀👍🏽 ok 🇫🇷 '.repeat(5000),
  base64: bytes.toString('base64'),
  'one letter, 4 KB': 'a'.repeat(4096),
  'spaces, 4 KB': ' '.repeat(4096),
  'short texts (x1000)': Array.from({ length: 1000 }, (_, i) => `Hello there, request ${i}!`),
};

/** CPU ms of one call of `count` over `text` (an array: every text of it), median of 9 rounds. */
function cpuMs(count, text) {
  const once = () => (Array.isArray(text) ? text.reduce((sum, t) => sum + count(t), 0) : count(text));
  once();
  const rounds = [];
  for (let round = 0; round < 9; round++) {
    const start = process.cpuUsage();
    let calls = 0;
    for (const until = performance.now() + 60; performance.now() < until; calls++) once();
    const used = process.cpuUsage(start);
    rounds.push((used.user + used.system) / 1000 / calls);
  }
  return rounds.sort((a, b) => a - b)[4];
}

const ours = (text) => countPlain(text);
const theirs = (text) => countTokens(text, PLAIN);
console.log('text'.padEnd(22), 'chars'.padStart(8), 'ours ms'.padStart(9), 'gpt-tokenizer ms'.padStart(17), 'ratio'.padStart(6), 'same count');
for (const [name, text] of Object.entries(TEXTS)) {
  const chars = Array.isArray(text) ? text.join('').length : text.length;
  const same = [text].flat().every((t) => ours(t) === theirs(t));
  const [a, b] = [cpuMs(ours, text), cpuMs(theirs, text)];
  console.log(name.padEnd(22), String(chars).padStart(8), a.toFixed(2).padStart(9), b.toFixed(2).padStart(17), (a / b).toFixed(2).padStart(6), same);
}
