// `model-gateway-mock/vitest/setup`: a vitest `globalSetup` that starts one mock for the whole run
// and provides its URL to every test file (`inject('modelGatewayMock')`), closing it at the end.
// As a file: `globalSetup: ['model-gateway-mock/vitest/setup']` (the project's `./fixtures` and
// `./scenarios`, or the package's own); with options: `export default mockGlobalSetup({ ... })`.
import { startMockServer, type MockServerOptions } from './index.js';

/** What the setup provides to the tests, through vitest's `provide` and `inject`. */
export interface ProvidedMock {
  url: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    modelGatewayMock: ProvidedMock;
  }
}

interface SetupProject {
  provide(key: 'modelGatewayMock', value: ProvidedMock): void;
}

export function mockGlobalSetup(options: MockServerOptions = {}) {
  return async (project: SetupProject): Promise<() => Promise<void>> => {
    const server = await startMockServer(options);
    project.provide('modelGatewayMock', { url: server.url });
    return () => server.close();
  };
}

export default mockGlobalSetup();
