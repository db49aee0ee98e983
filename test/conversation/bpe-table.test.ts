import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TABLE_FILE, rankOf, readTable, readTableAhead, tableOf } from '../../src/conversation/bpe-table.js';

const readAhead = (file?: string) => new Promise<Uint8Array | undefined>((done) => readTableAhead(done, file));
const spelled = (text: string) => new TextEncoder().encode(text);

describe('the token table read ahead', () => {
  it("gives the table file's bytes, which rank every token as the table read in place does", async () => {
    const data = await readAhead();
    expect(data).toBeDefined();
    expect(Buffer.compare(Buffer.from(data!), readFileSync(TABLE_FILE))).toBe(0);
    const [ahead, inPlace] = [tableOf(data!), readTable()];
    for (const word of ['Hello', ' world', '\ufeff', 'zzzzqq']) {
      const bytes = spelled(word);
      expect(rankOf(ahead, bytes, 0, bytes.length)).toBe(rankOf(inPlace, bytes, 0, bytes.length));
    }
    expect(rankOf(ahead, spelled('Hello'), 0, 5)).toBe(13225);
  });

  it('gives nothing for a file it cannot read, so the table is read where it is needed instead', async () => {
    expect(await readAhead(join(tmpdir(), 'no-such-token-table.bin'))).toBeUndefined();
  });

  it('names a file that is no token table', async () => {
    const data = await readAhead(new URL('../../package.json', import.meta.url).pathname);
    expect(() => tableOf(data!, 'package.json')).toThrow(/package.json is not a token table/);
  });
});
