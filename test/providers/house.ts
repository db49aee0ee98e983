// What every provider style owes the house (SPEC 23): an answer recorded through a second mock
// and replayed offline, `verify` and the journal and metrics under the provider's style name.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

export const NORWAY = `
chat:
  - name: capital
    match: { contains: "capital of Norway" }
    reply: { text: "The capital of Norway is Oslo, a city by the fjord." }
`;
/** The answer the providers' own tests ask for, whole and streamed. */
export const TIDES = `
chat:
  - name: tides
    match: { contains: "about tides" }
    reply: { text: "Tides follow the moon, twice a day, along every coast." }
`;
export const NORWAY_TEXT = 'The capital of Norway is Oslo, a city by the fjord.';

export interface ProviderCase {
  style: string;
  /** Asks "What is the capital of Norway?" through the provider's client at `url` (streamed when `stream`), and says the answer's text. */
  ask(url: string, headers: Record<string, string>, stream: boolean): Promise<string>;
}

async function journal(server: TestServer, session: string) {
  const response = await server.admin(`/requests?session=${session}`);
  return ((await response.json()) as { requests: Array<{ style: string; source: string; fixture: string | null; recorded: string | null }> }).requests;
}

/** The house's checks, as `it` blocks of the caller's describe. */
export function houseChecks(provider: ProviderCase): void {
  it(`records ${provider.style} through a second mock and replays it offline, whole and streamed`, async () => {
    const upstream = await startTestServer({ fixtureFiles: { 'up.yaml': NORWAY } });
    const recordDir = mkdtempSync(join(tmpdir(), 'mgm-provider-recording-'));
    const recorder = await startTestServer({ upstream: upstream.url, record: recordDir });
    try {
      // The stream is relayed and recorded; the recorder answers the whole ask from that recording.
      for (const stream of [true, false]) expect(await provider.ask(recorder.url, { 'x-mock-session': 'rec' }, stream)).toBe(NORWAY_TEXT);
      const [relayed, answered] = await journal(recorder, 'rec');
      expect([relayed!.style, relayed!.source]).toEqual([provider.style, 'upstream']);
      expect(relayed!.recorded).not.toBeNull();
      expect([answered!.style, answered!.source]).toEqual([provider.style, `recorded:${relayed!.recorded!.replace(/\.yaml$/, '')}`]);
      expect(readdirSync(recordDir).length).toBeGreaterThan(0);
    } finally {
      await recorder.close();
      await upstream.close();
    }
    const replay = await startTestServer({ fixtures: recordDir });
    try {
      for (const stream of [false, true]) expect(await provider.ask(replay.url, { 'x-mock-session': 'replay' }, stream)).toBe(NORWAY_TEXT);
      expect((await journal(replay, 'replay')).every((entry) => entry.fixture !== null)).toBe(true);
    } finally {
      await replay.close();
      rmSync(recordDir, { recursive: true, force: true });
    }
  });

  it(`verifies, journals and counts ${provider.style} requests under its style name`, async () => {
    const server = await startTestServer({ fixtureFiles: { 'norway.yaml': NORWAY } });
    try {
      await provider.ask(server.url, { 'x-mock-session': 'house' }, false);
      const verified = await server.admin('/verify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: 'house', expect: [{ requests: { style: provider.style, fixture: 'capital' }, count: 1 }] }),
      });
      expect(((await verified.json()) as { ok: boolean }).ok).toBe(true);
      expect((await journal(server, 'house'))[0]!.style).toBe(provider.style);
      expect(await (await server.admin('/metrics')).text()).toMatch(new RegExp(`mock_requests_total\\{[^}]*style="${provider.style}"`));
    } finally {
      await server.close();
    }
  });
}
