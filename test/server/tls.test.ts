// TLS on the port plain HTTP is served on: a client that opens with a TLS handshake gets the
// mock's routes over https, with a certificate from a local CA kept in the data directory (made
// once, reused); a client that never speaks TLS never causes one, and `tlsCert`/`tlsKey` replace it.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/index.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mgm-tls-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function httpsGet(port: number, path: string, ca: string, servername = 'localhost'): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', servername, port, path, ca, headers: { authorization: 'Bearer sk-test' } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** The certificate the server shows for `servername`, and whether it verified against `ca`. */
function shown(port: number, ca: string, servername?: string): Promise<{ names: string; authorized: boolean }> {
  return new Promise((done, fail) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername, rejectUnauthorized: false }, () => {
      const names = socket.getPeerX509Certificate()?.subjectAltName ?? '';
      done({ names, authorized: socket.authorized });
      socket.end();
    });
    socket.on('error', fail);
  });
}

describe('TLS on the same port', () => {
  it('serves every route over https with a leaf the local CA signed, and plain HTTP beside it', async () => {
    const mock = await startMockServer({ dataDir, latency: 'none', watch: false, host: '127.0.0.1' });
    try {
      const plain = await fetch(`${mock.url}/v1/models`, { headers: { authorization: 'Bearer sk-test' } });
      expect(plain.status).toBe(200);
      // Plain HTTP made no certificate: nothing was written yet.
      expect(readdirSync(dataDir)).toEqual([]);

      const caFile = await mock.tlsCa();
      expect(caFile).toBe(join(dataDir, 'ca.pem'));
      const ca = readFileSync(caFile!, 'utf8');
      const secure = await httpsGet(mock.port, '/v1/models', ca);
      expect(secure.status).toBe(200);
      expect(JSON.parse(secure.body)).toEqual(await plain.json());

      // Reached by name and by address (an address is checked against the leaf's IP entries).
      for (const name of ['localhost', undefined]) expect((await shown(mock.port, ca, name)).authorized).toBe(true);
      expect((await shown(mock.port, ca, 'localhost')).names.split(', ').sort()).toEqual(['DNS:localhost', 'IP Address:0:0:0:0:0:0:0:1', 'IP Address:127.0.0.1'].sort());
      expect(statSync(join(dataDir, 'ca-key.pem')).mode & 0o077).toBe(0);
    } finally {
      await mock.close();
    }
  });

  it('keeps the CA and the leaf: a second start makes no key', async () => {
    const before = readdirSync(dataDir).sort();
    const ca = readFileSync(join(dataDir, 'ca.pem'), 'utf8');
    const mock = await startMockServer({ dataDir, latency: 'none', watch: false });
    try {
      expect(await mock.tlsCa()).toBe(join(dataDir, 'ca.pem'));
      expect(readdirSync(dataDir).sort()).toEqual(before);
      expect(readFileSync(join(dataDir, 'ca.pem'), 'utf8')).toBe(ca);
      expect((await httpsGet(mock.port, '/v1/models', ca)).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it('names the --host name in the leaf, besides loopback', async () => {
    const other = mkdtempSync(join(tmpdir(), 'mgm-tls-host-'));
    const mock = await startMockServer({ dataDir: other, host: 'localhost', latency: 'none', watch: false });
    try {
      await mock.tlsCa();
      const leaf = readdirSync(other).find((file) => /^leaf-[0-9a-f]+\.pem$/.test(file))!;
      const names = new X509Certificate(readFileSync(join(other, leaf))).subjectAltName;
      expect(names).toContain('DNS:localhost');
      expect(names).toContain('IP Address:127.0.0.1');
    } finally {
      await mock.close();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('serves the certificate it is given with tlsCert and tlsKey, and names no CA', async () => {
    const leaf = readdirSync(dataDir).find((file) => /^leaf-[0-9a-f]+\.pem$/.test(file))!;
    const own = mkdtempSync(join(tmpdir(), 'mgm-tls-own-'));
    const mock = await startMockServer({
      dataDir: own,
      tlsCert: join(dataDir, leaf),
      tlsKey: join(dataDir, leaf.replace('.pem', '-key.pem')),
      latency: 'none',
      watch: false,
    });
    try {
      expect(await mock.tlsCa()).toBeUndefined();
      const ca = readFileSync(join(dataDir, 'ca.pem'), 'utf8');
      expect((await httpsGet(mock.port, '/v1/models', ca)).status).toBe(200);
      expect(readdirSync(own)).toEqual([]);
    } finally {
      await mock.close();
      rmSync(own, { recursive: true, force: true });
    }
  });
});
