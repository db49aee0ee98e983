// The certificate TLS is served with: a local CA made on first start and kept in the user's data
// directory (so a client trusts it once, through NODE_EXTRA_CA_CERTS), and a leaf it signs for the
// names a client reaches the mock by. Keys come from Node's crypto (forge's own RSA key generation
// is slow pure JS); forge writes and signs the certificates.
import { createHash, generateKeyPair } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import forge from 'node-forge';
import { caPath } from './data-dir.js';

/** A PEM certificate chain and its key, as `tls.createSecureContext` takes them. */
export interface Credentials {
  cert: string;
  key: string;
}

const DAY_MS = 86_400_000;
const CA_YEARS = 10;
/** Below the 398 days clients accept for a leaf; renewed when a start finds it within a month of its end. */
const LEAF_DAYS = 365;

interface Keys {
  publicPem: string;
  privatePem: string;
}

const newKeys = async (): Promise<Keys> => {
  const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicPem: publicKey, privatePem: privateKey };
};

function certificate(publicPem: string, subject: string, days: number): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  cert.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(15))}`;
  const now = Date.now();
  cert.validity.notBefore = new Date(now - DAY_MS);
  cert.validity.notAfter = new Date(now + days * DAY_MS);
  cert.setSubject([{ name: 'commonName', value: subject }, { name: 'organizationName', value: 'model-gateway-mock' }]);
  return cert;
}

/** Writes a file whole or not at all: two mocks starting at once never read half a key. */
function writeWhole(path: string, text: string): void {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, text, { mode: 0o600 });
  renameSync(partial, path);
}

interface Ca extends Credentials {
  certificate: forge.pki.Certificate;
}

async function makeCa(dataDir: string): Promise<Ca> {
  const keys = await newKeys();
  const cert = certificate(keys.publicPem, 'model-gateway-mock local CA', CA_YEARS * 365);
  cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keys.privatePem), forge.md.sha256.create());
  const pem = forge.pki.certificateToPem(cert);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeWhole(join(dataDir, 'ca-key.pem'), keys.privatePem);
  writeWhole(caPath(dataDir), pem);
  return { cert: pem, key: keys.privatePem, certificate: cert };
}

/** The CA kept in `dataDir`, made there on first use. */
async function localCa(dataDir: string): Promise<Ca> {
  const certFile = caPath(dataDir);
  const keyFile = join(dataDir, 'ca-key.pem');
  if (!existsSync(certFile) || !existsSync(keyFile)) return makeCa(dataDir);
  const cert = readFileSync(certFile, 'utf8');
  return { cert, key: readFileSync(keyFile, 'utf8'), certificate: forge.pki.certificateFromPem(cert) };
}

/** The names a leaf is issued for: loopback in every spelling, and the name the mock is bound to. */
export function leafNames(host: string): string[] {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return [...new Set(['127.0.0.1', 'localhost', '::1', bare])];
}

function altName(name: string): { type: number; value?: string; ip?: string } {
  // 7 is an IP address, 2 a DNS name (RFC 5280's GeneralName).
  return isIP(name) ? { type: 7, ip: name } : { type: 2, value: name };
}

async function issueLeaf(ca: Ca, names: string[], keys: Keys): Promise<Credentials> {
  const cert = certificate(keys.publicPem, names[0] ?? 'localhost', LEAF_DAYS);
  cert.setIssuer(ca.certificate.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map(altName) },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(ca.key), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert) + ca.cert, key: keys.privatePem };
}

function stillGood(pem: string): boolean {
  return forge.pki.certificateFromPem(pem).validity.notAfter.getTime() - Date.now() > 30 * DAY_MS;
}

/**
 * A leaf for `host` signed by the CA in `dataDir`, both made there on first use and kept: a start
 * after the first makes no key.
 */
export async function localCredentials(dataDir: string, host: string): Promise<Credentials> {
  // A first start makes two keys: side by side on the thread pool, as each takes a while.
  const firstKeys = existsSync(caPath(dataDir)) ? undefined : newKeys();
  const ca = await localCa(dataDir);
  const names = leafNames(host);
  const tag = createHash('sha256').update(names.join(',')).update(ca.cert).digest('hex').slice(0, 16);
  const certFile = join(dataDir, `leaf-${tag}.pem`);
  const keyFile = join(dataDir, `leaf-${tag}-key.pem`);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile, 'utf8');
    if (stillGood(cert)) return { cert, key: readFileSync(keyFile, 'utf8') };
  }
  const leaf = await issueLeaf(ca, names, await (firstKeys ?? newKeys()));
  writeWhole(keyFile, leaf.key);
  writeWhole(certFile, leaf.cert);
  return leaf;
}
