// The order files load in is localeCompare's: nameOrder gives its sign for every name it orders
// itself (letters of either case, digits, `_`, `-`, `.`) and hands any other to it.
import { describe, expect, it } from 'vitest';
import { nameOrder } from '../../src/config/name-order.js';

const PLAIN = '_-.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Every name of one or two characters, then longer ones from a fixed sequence, where ties of case and prefixes are frequent. */
function names(): string[] {
  const all: string[] = [];
  for (const a of PLAIN) {
    all.push(a);
    for (const b of PLAIN) all.push(a + b);
  }
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let n = 0; n < 5000; n++) all.push(Array.from({ length: 1 + next(10) }, () => 'aAbB_-.0z'[next(9)]).join(''));
  return all.concat(['chat.yaml', 'Chat.yaml', 'chat-2.yaml', 'chat_2.yaml', 'chat.yml', 'tools.yaml', 'v10.yaml', 'v9.yaml']);
}

describe('the order of file names', () => {
  it('sorts plain names as localeCompare does', () => {
    const list = names();
    expect([...list].sort(nameOrder)).toEqual([...list].sort((a, b) => a.localeCompare(b)));
  });

  it('gives localeCompare\'s sign for each pair, and hands other names to it', () => {
    const list = names().filter((_, i) => i % 37 === 0).concat(['é.yaml', 'e.yaml', 'f.yaml', 'z y.yaml', 'zy.yaml', 'ß.yaml']);
    for (const a of list) for (const b of list) expect(Math.sign(nameOrder(a, b)), `${a} against ${b}`).toBe(Math.sign(a.localeCompare(b)));
  });
});
