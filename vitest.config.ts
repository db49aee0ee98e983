import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Files that replace one of the mock's own modules (`vi.mock`): they need modules of their own. */
const mocking = ['test/server/turns.test.ts', 'test/styles/schemas-at-first-use.test.ts'];
/**
 * Files that fake the timers the paced streams' one clock (server/pacing-clock.ts) arms: they
 * need a clock of their own. In a shared worker, a fake world begun while another file's real
 * stream had the clock armed left it waiting on a timer that was gone with the fake world, and
 * every paced stream the worker served after it hung (a CI run's writer and provider tests).
 */
const fakingThePacingClock = ['test/server/pacing-clock.test.ts', 'test/server/late-reply.test.ts', 'test/scenarios/writer-faults.test.ts'];
/**
 * Files that count the process's timers and sockets to find what a mock left behind: in a shared
 * worker, what another file left running counted too (two timers of another file's poll, once).
 */
const countingHandles = ['test/hardening/disconnects.test.ts'];
const ownModules = [...mocking, ...fakingThePacingClock, ...countingHandles];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The OS temp dir of each file is a folder of its own, removed when the file ends.
    setupFiles: ['test/helpers/own-temp-folder.ts'],
    // Vitest's default is one worker less than the cores, which on two cores is one test file at a
    // time: most files spend much of their time waiting on a child process, a socket or a timer,
    // and the other core stayed idle (the suite used about one core of two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ownModules,
          // One mock on the repository's fixtures for the tests that use the package's own vitest
          // plugin (test/runners/own-suite.test.ts); every other file starts the servers it needs.
          globalSetup: ['src/vitest-setup.ts'],
          // Test files share a worker's loaded modules (the SDKs, LangChain, the mock itself): each
          // file starts its own servers on port 0 and keeps no global state, and loading those
          // modules once per worker instead of once per file takes the suite from about five
          // minutes to two on two cores.
          isolate: false,
        },
      },
      {
        extends: true,
        // Each of these files runs in a process of its own. A module mocked in a worker whose files
        // share modules would miss the files that loaded the real one first (which files those are
        // depends on the order the workers take them).
        test: { name: 'isolated', include: ownModules, isolate: true },
      },
    ],
  },
});
