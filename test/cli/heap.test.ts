import { describe, expect, it } from 'vitest';
import { heapGrowthGiven } from '../../src/heap.js';

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
});
