// dist/o200k_base.bin: gpt-tokenizer's o200k_base vocabulary (ranks, then the special tokens'
// spellings for decoding) as the one buffer src/conversation/bpe-table.ts reads in place.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const { tableBuffer, TABLE_FILE } = await import(`${root}dist/conversation/bpe-table.js`);
const ranks = require('gpt-tokenizer/cjs/bpeRanks/o200k_base').default;
const { createO200KSpecialTokenMap } = require('gpt-tokenizer/cjs/encodingParams/o200k_base');
const { vocabularySize } = require('gpt-tokenizer/cjs/encoding/o200k_base');

const utf8 = new TextEncoder();
const tokens = Array.from({ length: vocabularySize }, (_, id) => {
  const rank = ranks[id];
  return rank === undefined ? undefined : typeof rank === 'string' ? utf8.encode(rank) : new Uint8Array(rank);
});
for (const [spelling, id] of createO200KSpecialTokenMap()) if (id < vocabularySize) tokens[id] = utf8.encode(spelling);
writeFileSync(TABLE_FILE, tableBuffer(tokens, ranks.length));
