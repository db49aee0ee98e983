// What a documentation snippet gets when it imports 'vitest': the hooks and `it` collected, then
// run in order by the snippet test (a test cannot start tests of its own), and vitest's expect.
export { expect } from 'vitest';

type Hook = (context: { task: { id: string } }) => unknown;

const collected = { beforeAll: [] as Hook[], afterAll: [] as Hook[], beforeEach: [] as Hook[], afterEach: [] as Hook[], tests: [] as Array<[string, Hook]> };

export const beforeAll = (hook: Hook) => void collected.beforeAll.push(hook);
export const afterAll = (hook: Hook) => void collected.afterAll.push(hook);
export const beforeEach = (hook: Hook) => void collected.beforeEach.push(hook);
export const afterEach = (hook: Hook) => void collected.afterEach.push(hook);
export const it = (name: string, body: Hook) => void collected.tests.push([name, body]);
export const test = it;
export const describe = (_name: string, body: () => void) => body();

/** Runs what the snippet declared, as vitest would, and forgets it. */
export async function runCollected(prefix: string): Promise<number> {
  const { beforeAll: before, afterAll: after, beforeEach: each, afterEach: eachAfter, tests } = collected;
  const count = tests.length;
  try {
    for (const hook of before) await hook({ task: { id: `${prefix}-all` } });
    for (const [name, body] of tests) {
      const context = { task: { id: `${prefix}-${name}` } };
      for (const hook of each) await hook(context);
      try {
        await body(context);
      } finally {
        for (const hook of eachAfter) await hook(context);
      }
    }
  } finally {
    for (const hook of after) await hook({ task: { id: `${prefix}-all` } });
    for (const list of [before, after, each, eachAfter, tests]) list.length = 0;
  }
  return count;
}
