import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One mock on the repository's fixtures for the tests that use the package's own vitest plugin
    // (test/runners/own-suite.test.ts); every other file starts the servers it needs.
    globalSetup: ['src/vitest-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Test files share a worker's loaded modules (the SDKs, LangChain, the mock itself): each
    // file starts its own servers on port 0 and keeps no global state, and loading those modules
    // once per worker instead of once per file takes the suite from about five minutes to two on
    // two cores.
    isolate: false,
  },
});
