import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/built.js';
import { interruptBudgetGiven } from '../../src/tiering.js';

beforeAll(ensureBuilt, 300_000);

/**
 * How many calls of a small function V8 makes before it is optimised, in a process started with
 * `nodeFlags` that calls the command's `setTiering` first. Compiled on the main thread, so the
 * count does not depend on when a background compile ends.
 */
function callsBeforeOptimised(nodeFlags: string[], set: boolean): number {
  const tiering = pathToFileURL(`${ROOT}/dist/tiering.js`).href;
  const code = `const { setTiering } = await import(${JSON.stringify(tiering)});
    if (process.argv[1] === 'set') setTiering();
    const optimised = new Function('f', 'return (%GetOptimizationStatus(f) & 16) !== 0');
    function sum(record) { let total = 0; for (const key in record) total += record[key]; return total; }
    let calls = 0;
    while (!optimised(sum) && calls < 1e6) sum({ a: calls++, b: 1 });
    console.log(calls);`;
  const flags = ['--allow-natives-syntax', '--no-concurrent-recompilation', ...nodeFlags];
  return Number(execFileSync(process.execPath, [...flags, '--input-type=module', '-e', code, set ? 'set' : 'default'], { encoding: 'utf8' }));
}

describe("the command's JIT tiering", () => {
  it("is left as the user set it in node's flags, with dashes or underscores", () => {
    expect(interruptBudgetGiven(['--interrupt-budget=16384'])).toBe(true);
    expect(interruptBudgetGiven(['--enable-source-maps', '--interrupt_budget=100000'])).toBe(true);
    expect(interruptBudgetGiven(['--enable-source-maps', '--max-old-space-size=512'])).toBe(false);
  });

  it("optimises a function after more of its work than V8's default, unless node was given a budget", () => {
    const byDefault = callsBeforeOptimised([], false);
    expect(callsBeforeOptimised([], true)).toBeGreaterThan(2 * byDefault);
    // A quarter of the default budget, given in node's flags, still optimises sooner than the default.
    expect(callsBeforeOptimised(['--interrupt-budget=16384'], true)).toBeLessThan(byDefault);
  });
});
