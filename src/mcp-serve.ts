// `model-gateway-mock mcp-serve SERVER --fixtures DIR`: one fake MCP server of the fixtures over
// stdio (SPEC 22), for agents that start their tool servers as commands. stdout carries the
// protocol; log lines go to stderr. The fixtures are watched: a change of the server's tools is
// told to the client with `notifications/tools/list_changed`.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigLoadError } from './config/store.js';
import { assembleMock } from './mock-app.js';
import { toolServer } from './exchange/tool-server.js';

export interface McpServeOptions {
  fixtures?: string[];
  scenarios?: string[];
  seed: number;
  /** The mock session the calls are journaled in. */
  session: string;
}

/** Serves `name` until stdin closes; a message on stderr and exit code 1 when it is not declared. */
export async function serveToolServer(name: string, options: McpServeOptions): Promise<void> {
  let mock: ReturnType<typeof assembleMock>['mock'];
  try {
    ({ mock } = assembleMock({ fixtures: options.fixtures, scenarios: options.scenarios, seed: options.seed, logLevel: 'error', logger: (line) => process.stderr.write(`${line}\n`) }));
  } catch (error) {
    if (!(error instanceof ConfigLoadError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const declared = [...mock.store.current.mcp.keys()];
  if (!declared.includes(name)) {
    process.stderr.write(`No MCP server "${name}" is declared in the fixtures. MCP servers: ${declared.join(', ') || 'none'}.\n`);
    process.exit(1);
  }
  mock.store.watch();
  const session = mock.sessions.get(options.session);
  const server = toolServer(mock, name, {
    session: () => session,
    headers: () => ({}),
    // Over stdio, dropping the connection is ending the process's side of it.
    reset: () => void server.close().then(() => process.exit(0)),
  });
  server.onclose = ((closed) => () => {
    closed?.();
    void mock.store.close();
  })(server.onclose);
  await server.connect(new StdioServerTransport());
}
