// The o200k_base vocabulary as one buffer made at package time (scripts/token-table.mjs, from
// gpt-tokenizer's ranks): read in place, so loading it is a file read and a few views instead of
// 200,000 strings and a Map (half a second of CPU before the first answer, and most of what a
// full collection marked in an idle mock).
import { close, fstatSync, openSync, read, readFileSync } from 'node:fs';
import { packageFile } from '../package-root.js';

export const TABLE_FILE = packageFile('dist', 'o200k_base.bin');

const MAGIC = 0x6b303032;
const HEADER_WORDS = 5;
/** No token: a rank above every real one, so a pair without a token never merges first. */
export const NO_TOKEN = 0x7fffffff;

/**
 * Layout, little-endian 32-bit words: magic, vocabulary size (ids the library decodes, gaps and
 * special tokens included), mergeable count (ids below it are BPE ranks), log2 of the slot count,
 * the bytes' length; then the offset of each id's bytes (one more than the vocabulary, an empty
 * range for a gap); then the slots of an open-addressed hash of the mergeable tokens' bytes (id, or
 * -1); then the bytes.
 */
export interface BpeTable {
  readonly vocabularySize: number;
  readonly offsets: Uint32Array;
  readonly slots: Int32Array;
  readonly mask: number;
  readonly bytes: Uint8Array;
}

/** FNV-1a over `bytes[start, end)`: the slot a token's bytes hash to. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

/** The table as the build writes it: `tokens[id]` is the id's bytes (undefined for a gap). */
export function tableBuffer(tokens: readonly (Uint8Array | undefined)[], mergeable: number): Uint8Array {
  const slotBits = Math.ceil(Math.log2(mergeable * 2.5));
  const slotCount = 2 ** slotBits;
  const blobLength = tokens.reduce((sum, token) => sum + (token?.length ?? 0), 0);
  const words = HEADER_WORDS + tokens.length + 1 + slotCount;
  const buffer = new Uint8Array(words * 4 + blobLength);
  const view = new Uint32Array(buffer.buffer, 0, words);
  view.set([MAGIC, tokens.length, mergeable, slotBits, blobLength]);
  const offsets = view.subarray(HEADER_WORDS, HEADER_WORDS + tokens.length + 1);
  const slots = new Int32Array(buffer.buffer, (HEADER_WORDS + tokens.length + 1) * 4, slotCount).fill(-1);
  const bytes = buffer.subarray(words * 4);
  let at = 0;
  tokens.forEach((token, id) => {
    offsets[id] = at;
    if (token) bytes.set(token, at);
    at += token?.length ?? 0;
  });
  offsets[tokens.length] = at;
  for (let id = 0; id < mergeable; id++) {
    let slot = hashBytes(bytes, offsets[id]!, offsets[id + 1]!) & (slotCount - 1);
    while (slots[slot] !== -1) slot = (slot + 1) & (slotCount - 1);
    slots[slot] = id;
  }
  return buffer;
}

/** The table in TABLE_FILE, as views over the file's bytes. */
export function readTable(file = TABLE_FILE): BpeTable {
  return tableOf(readFileSync(file), file);
}

/**
 * Starts reading the table file on libuv's pool as one request, and gives `done` its bytes, or
 * nothing if it could not be read whole. `readFile` reads in parts, each waiting for a turn of the
 * loop, which a start does not give until it listens; one request is read on another core while
 * the start goes on (the file's 4 MB of fresh pages took the first answer 15 ms on the main thread).
 */
export function readTableAhead(done: (data: Uint8Array | undefined) => void, file = TABLE_FILE): void {
  let fd: number;
  let data: Buffer;
  try {
    fd = openSync(file, 'r');
    data = Buffer.allocUnsafeSlow(fstatSync(fd).size);
  } catch {
    done(undefined);
    return;
  }
  read(fd, data, 0, data.length, 0, (error, bytesRead) => {
    close(fd, () => {});
    done(error || bytesRead !== data.length ? undefined : data);
  });
}

/** The table in `data` (a table file's bytes), as views over them; `file` names it in an error. */
export function tableOf(data: Uint8Array, file = TABLE_FILE): BpeTable {
  // Aligned for the word views: a Buffer from a read may sit at any offset of a shared pool.
  const buffer = data.byteOffset % 4 === 0 ? data : Uint8Array.prototype.slice.call(data);
  const words = new Uint32Array(buffer.buffer, buffer.byteOffset, HEADER_WORDS);
  const [magic, vocabularySize, , slotBits] = words as unknown as number[];
  if (magic !== MAGIC) throw new Error(`${file} is not a token table: run \`npm run build\``);
  const offsetsAt = buffer.byteOffset + HEADER_WORDS * 4;
  const offsets = new Uint32Array(buffer.buffer, offsetsAt, vocabularySize! + 1);
  const slotCount = 2 ** slotBits!;
  const slots = new Int32Array(buffer.buffer, offsetsAt + offsets.byteLength, slotCount);
  const bytes = new Uint8Array(buffer.buffer, slots.byteOffset + slots.byteLength);
  return { vocabularySize: vocabularySize!, offsets, slots, mask: slotCount - 1, bytes };
}

/** The id of the mergeable token spelled `piece[start, end)`, or NO_TOKEN. */
export function rankOf(table: BpeTable, piece: Uint8Array, start: number, end: number): number {
  const { offsets, slots, mask, bytes } = table;
  const length = end - start;
  for (let slot = hashBytes(piece, start, end) & mask; ; slot = (slot + 1) & mask) {
    const id = slots[slot]!;
    if (id < 0) return NO_TOKEN;
    const at = offsets[id]!;
    if (offsets[id + 1]! - at !== length) continue;
    let i = 0;
    while (i < length && bytes[at + i] === piece[start + i]) i++;
    if (i === length) return id;
  }
}

/** The bytes of `id`, or undefined for an id the vocabulary does not hold. */
export function bytesOf(table: BpeTable, id: number): Uint8Array | undefined {
  if (!Number.isInteger(id) || id < 0 || id >= table.vocabularySize) return undefined;
  const start = table.offsets[id]!;
  const end = table.offsets[id + 1]!;
  return end > start ? table.bytes.subarray(start, end) : undefined;
}
