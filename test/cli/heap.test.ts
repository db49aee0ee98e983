import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/built.js';
import { growingPercent, HEAP_GROWING_PERCENT, HEAP_GROWING_ROOM, heapGrowthGiven, youngSizeGiven } from '../../src/heap.js';

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

  it("keeps a young generation sized in node's flags, and holds it otherwise", () => {
    expect(youngSizeGiven(['--max-semi-space-size=16'])).toBe(true);
    expect(youngSizeGiven(['--semi_space_growth_factor=2'])).toBe(true);
    expect(youngSizeGiven(['--min-semi-space-size=4', '--heap-growing-percent=80'])).toBe(true);
    expect(youngSizeGiven(['--heap-growing-percent=80', '--max-old-space-size=512'])).toBe(false);
  });

  it('stops the young generation growing from the start, under a burst of allocation', () => {
    const heap = pathToFileURL(`${ROOT}/src/heap.ts`).href;
    // Objects that survive a scavenge or two, as a burst of open streams' do: V8 would grow the young generation to 32 MB.
    const code = `import { getHeapSpaceStatistics } from 'node:v8';
      const { boundHeapGrowth } = await import(${JSON.stringify(heap)});
      const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
      if (process.argv[1] === 'bound') boundHeapGrowth();
      const before = young();
      const live = [];
      for (let i = 0; i < 300000; i++) { live.push({ i, text: 'x' + i, pair: [i, i + 1] }); if (live.length > 50000) live.splice(0, 1000); }
      console.log(JSON.stringify([before, young()]));`;
    const sizes = (how: string) => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, how], { encoding: 'utf8' })) as [number, number];
    const [freeBefore, freeAfter] = sizes('free');
    expect(freeAfter).toBeGreaterThan(2 * freeBefore);
    const [boundBefore, boundAfter] = sizes('bound');
    expect(boundAfter).toBe(boundBefore);
  });
});
