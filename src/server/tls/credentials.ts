// Which certificate TLS is served with: the one the user brought (`--tls-cert`/`--tls-key`), else
// the local CA's leaf. Read once, at the first TLS connection or when the CA's path is asked for.
import { readFileSync } from 'node:fs';
import { caPath, defaultDataDir, localCredentials, type Credentials } from './local-ca.js';

export interface TlsOptions {
  tlsCert?: string;
  tlsKey?: string;
  dataDir?: string;
  host: string;
}

export interface TlsSource {
  credentials(): Promise<Credentials>;
  /** The local CA's PEM file, made if it is not there yet; undefined when the user brought a certificate. */
  caFile(): Promise<string | undefined>;
  /** Where the local CA's PEM file is (or will be once made); undefined when the user brought a certificate. */
  caPath?: string;
}

export function tlsSource(options: TlsOptions): TlsSource {
  const { tlsCert, tlsKey } = options;
  if (Boolean(tlsCert) !== Boolean(tlsKey)) throw new Error('--tls-cert and --tls-key go together: give both or neither.');
  if (tlsCert && tlsKey) {
    const own = { cert: readFileSync(tlsCert, 'utf8'), key: readFileSync(tlsKey, 'utf8') };
    return { credentials: async () => own, caFile: async () => undefined };
  }
  const dataDir = options.dataDir ?? defaultDataDir();
  let made: Promise<Credentials> | undefined;
  const credentials = () => (made ??= localCredentials(dataDir, options.host));
  return { credentials, caFile: async () => (await credentials(), caPath(dataDir)), caPath: caPath(dataDir) };
}
