// `model-gateway-mock/vitest`: `test`, vitest's own extended with a `gateway` fixture. Each test
// gets its own session of the one mock the global setup started (`./vitest-setup.ts`): its id, the
// headers that carry it, the base URLs for the SDKs, and the oracle (`verify`, `assertVerified`)
// and journal of that session alone, so tests run in parallel without seeing each other.
import { createHash } from 'node:crypto';
import { inject, test as base } from 'vitest';
import type { ProvidedMock } from './vitest-setup.js';

export interface VerifyResult {
  ok: boolean;
  results: Array<{ ok: boolean; expect: unknown; actual: unknown; message: string }>;
}

export interface GatewaySession {
  /** The mock's base URL: `${url}/v1` for openai, `url` for @anthropic-ai/sdk and @google/genai. */
  url: string;
  /** This test's session id, stable for the test. */
  session: string;
  /** `{ 'x-mock-session': session }`: pass as the SDK's default headers. */
  headers: Record<string, string>;
  /** Asks the oracle (`POST /__admin/verify`) about this session. */
  verify(expect: unknown[]): Promise<VerifyResult>;
  /** Fails the test with every failed expectation's message. */
  assertVerified(expect: unknown[]): Promise<void>;
  /** This session's journal, oldest first (`GET /__admin/requests`). */
  journal(): Promise<unknown[]>;
}

/** The session's journal, oldest first, gathered page by page (a page holds about 8 MB of bodies). */
async function wholeJournal(url: string, session: string): Promise<Array<{ id: string }>> {
  let entries: Array<{ id: string }> = [];
  for (let before = ''; ; ) {
    const page = (await adminJson(url, `/requests?session=${encodeURIComponent(session)}${before}`)) as { requests: Array<{ id: string }>; more: boolean };
    entries = page.requests.concat(entries);
    if (!page.more || page.requests.length === 0) return entries;
    before = `&before=${encodeURIComponent(page.requests[0]!.id)}`;
  }
}

async function adminJson(url: string, path: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(`${url}/__admin${path}`, init);
  const body = await response.json();
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} /__admin${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

export function gatewaySession(url: string, session: string): GatewaySession {
  const verify = async (expect: unknown[]) =>
    (await adminJson(url, '/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, expect }) })) as VerifyResult;
  return {
    url,
    session,
    headers: { 'x-mock-session': session },
    verify,
    assertVerified: async (expect) => {
      const result = await verify(expect);
      const failed = result.results.filter((r) => !r.ok).map((r) => r.message);
      if (failed.length > 0) throw new Error(`The mock saw otherwise:\n- ${failed.join('\n- ')}`);
    },
    journal: () => wholeJournal(url, session),
  };
}

/** A test's session id: its file and name hashed, so it is the same on every run and its own. */
function sessionOf(task: { id: string; file?: { filepath?: string } }): string {
  return `vitest-${createHash('sha256').update(`${task.file?.filepath ?? ''}\0${task.id}`).digest('hex').slice(0, 16)}`;
}

export const test = base.extend<{ gateway: GatewaySession }>({
  gateway: async ({ task }, use) => {
    const provided: ProvidedMock = inject('modelGatewayMock');
    if (!provided) throw new Error("No mock was provided: add globalSetup: ['model-gateway-mock/vitest/setup'] to the vitest config.");
    const session = sessionOf(task);
    // Announced, so a test that asks the model nothing still verifies "nothing was asked".
    await adminJson(provided.url, '/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session }) });
    await use(gatewaySession(provided.url, session));
  },
});

export { expect, describe } from 'vitest';
