import { describe, expect, it } from 'vitest';
import { heapGrowthGiven } from '../../src/heap.js';

describe("the command's heap growth", () => {
  it("is left as the user set it, in node's flags or NODE_OPTIONS, with dashes or underscores", () => {
    expect(heapGrowthGiven(['--heap-growing-percent=80'])).toBe(true);
    expect(heapGrowthGiven(['--enable-source-maps'], '--max-old-space-size=512 --heap_growing_percent=20')).toBe(true);
  });

  it('is bounded otherwise', () => {
    expect(heapGrowthGiven([], '')).toBe(false);
    expect(heapGrowthGiven(['--enable-source-maps'], '--max-old-space-size=512')).toBe(false);
  });
});
