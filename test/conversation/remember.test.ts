// A memo of bounded size (conversation/remember.ts): what it keeps past its size, and its bytes as
// the process's caches count them for the memory budget.
import { describe, expect, it } from 'vitest';
import { caches } from '../../src/conversation/caches.js';
import { Memo } from '../../src/conversation/remember.js';

describe('a memo past its size', () => {
  it('still answers for the keys set just before it filled', () => {
    const memo = new Memo<number>('hints', 3);
    for (const key of ['a', 'b', 'c', 'd']) memo.set(key, key.charCodeAt(0));
    expect(['a', 'b', 'c', 'd'].map((key) => memo.get(key))).toEqual([97, 98, 99, 100]);
    memo.shrinkTo(0);
  });

  it('keeps a key read lately over the keys not read since they were set', () => {
    const memo = new Memo<number>('hints', 3);
    for (const key of ['a', 'b', 'c', 'd']) memo.set(key, key.charCodeAt(0));
    memo.get('a');
    for (const key of ['e', 'f']) memo.set(key, 0);
    expect(['b', 'c', 'a'].map((key) => memo.get(key))).toEqual([undefined, undefined, 97]);
    memo.shrinkTo(0);
  });

  it('counts its bytes in both generations, and gives way oldest first', () => {
    const before = caches.bytes;
    const memo = new Memo<string>('hints', 2, (value) => value.length);
    memo.set('k1', 'x'.repeat(100));
    memo.set('k2', 'x'.repeat(100));
    memo.set('k3', 'x'.repeat(100));
    const entry = memo.bytes / 3;
    expect(caches.bytes - before).toBe(memo.bytes);
    memo.shrinkTo(memo.bytes - 1);
    expect(['k1', 'k2', 'k3'].map((key) => memo.get(key) !== undefined)).toEqual([false, false, true]);
    expect(memo.bytes).toBe(entry);
    expect(caches.bytes - before).toBe(entry);
    memo.shrinkTo(0);
    expect(memo.get('k3')).toBeUndefined();
    expect(caches.bytes).toBe(before);
  });
});
