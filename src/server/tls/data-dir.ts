// Where the local CA is kept: apart from the module that makes it, so knowing the path does not
// load node-forge (a start without TLS never needs it).
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_DATA_HOME/model-gateway-mock`, else `~/.local/share/model-gateway-mock`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'model-gateway-mock');
}

export function caPath(dataDir: string): string {
  return join(dataDir, 'ca.pem');
}
