import { describe, expect, it } from 'vitest';
import { growingPercent, HEAP_GROWING_PERCENT, HEAP_GROWING_ROOM, heapGrowthGiven } from '../../src/heap.js';

// NODE_OPTIONS cannot carry the flag (node refuses to start): node's own flags are where a user sets it.
describe("the command's heap growth", () => {
  it("is left as the user set it in node's flags, with dashes or underscores", () => {
    expect(heapGrowthGiven(['--heap-growing-percent=80'])).toBe(true);
    expect(heapGrowthGiven(['--enable-source-maps', '--heap_growing_percent=20'])).toBe(true);
  });

  it('is bounded otherwise', () => {
    expect(heapGrowthGiven([])).toBe(false);
    expect(heapGrowthGiven(['--enable-source-maps', '--max-old-space-size=512'])).toBe(false);
  });

  it('lets a small heap grow by a fixed room, up to twice its size, and a large one by a quarter', () => {
    const mb = 1024 * 1024;
    expect(growingPercent(8 * mb)).toBe(100);
    expect(growingPercent(48 * mb)).toBe(Math.ceil((100 * HEAP_GROWING_ROOM) / (48 * mb)));
    expect(growingPercent(100 * mb)).toBe(32);
    expect(growingPercent(512 * mb)).toBe(HEAP_GROWING_PERCENT);
  });
});
