// `model-gateway-mock drift --upstream URL`: each recorded turn (a fixture with `match.fingerprint`
// and the `request:` that `--record` kept) and each `drift:` entry is asked of the upstream and of
// the mock itself, a mock started here on the same fixtures, and the two answers are compared by
// shape (styles/drift-shapes.ts). Exit 0 without findings, 1 with findings, 2 when the upstream
// could not be asked.
import { readFileSync } from 'node:fs';
import { createParser } from 'eventsource-parser';
import { parse } from 'yaml';
import { findYamlFiles } from './config/files.js';
import type { DriftCase, DriftResult } from './drift-report.js';
import { startMockServer } from './index.js';
import { chatParams, STYLE_ENTRIES, styleEntry, type StyleEntry } from './styles/registry.js';
import { compareShapes, type ShapedAnswer } from './styles/drift-shapes.js';

interface Asked extends DriftCase {
  path: string;
  body: unknown;
}

/** How many requests are in flight at once, to each side. */
const CONCURRENCY = 16;

function styleOfPath(path: string): StyleEntry | undefined {
  const bare = path.split('?')[0]!;
  return STYLE_ENTRIES.find((entry) => chatParams(entry, bare) !== undefined);
}

/** The requests to ask: recorded turns and `drift:` entries, file by file, in order. */
export function driftCases(dirs: readonly string[]): Asked[] {
  const cases: Asked[] = [];
  for (const dir of dirs) {
    for (const file of findYamlFiles(dir).files) {
      const data = (parse(readFileSync(file, 'utf8')) ?? {}) as {
        chat?: Array<{ name?: string; match?: { fingerprint?: string }; request?: { path: string; body: unknown } }>;
        drift?: Array<{ name?: string; path: string; style?: string; request: unknown }>;
      };
      data.chat?.forEach((fixture, index) => {
        if (!fixture.match?.fingerprint || !fixture.request) return;
        const style = styleOfPath(fixture.request.path)?.style.name ?? '-';
        const name = fixture.name ?? `chat[${index}]`;
        cases.push({ name, file, endpoint: `POST ${fixture.request.path}`, style, path: fixture.request.path, body: fixture.request.body });
      });
      data.drift?.forEach((entry, index) => {
        const style = entry.style ?? styleOfPath(entry.path)?.style.name ?? '-';
        cases.push({ name: entry.name ?? `drift[${index}]`, file, endpoint: `POST ${entry.path}`, style, path: entry.path, body: entry.request });
      });
    }
  }
  return cases;
}

/** The headers a style's client sends: its key where it presents it, and what the vendor requires. */
function headersFor(style: StyleEntry | undefined, key: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const keyHeader = style?.keyHeader ?? 'authorization';
  headers[keyHeader] = keyHeader === 'authorization' ? `Bearer ${key}` : key;
  for (const name of style?.requiredHeaders ?? []) if (name === 'anthropic-version') headers[name] = '2023-06-01';
  return headers;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An answer read whole: its JSON body, or its SSE events. */
async function answerOf(response: Response): Promise<ShapedAnswer> {
  const headers = Object.fromEntries(response.headers);
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return { status: response.status, headers, body: parsed(text) };
  const events: Array<{ event: string | null; data: unknown }> = [];
  const parser = createParser({ onEvent: (event) => events.push({ event: event.event ?? null, data: parsed(event.data) }) });
  parser.feed(text);
  return { status: response.status, headers, events };
}

async function ask(base: string, asked: Asked, key: string): Promise<ShapedAnswer> {
  const style = styleEntry(asked.style);
  const response = await fetch(`${base.replace(/\/+$/, '')}${asked.path}`, { method: 'POST', headers: headersFor(style, key), body: JSON.stringify(asked.body) });
  return answerOf(response);
}

/** Thrown when the upstream could not be asked at all: the command exits 2. */
export class UpstreamUnreachable extends Error {}

async function compared(upstream: string, mock: string, asked: Asked, key: string): Promise<DriftResult> {
  const { path: _path, body: _body, ...drift } = asked;
  let theirs: ShapedAnswer;
  try {
    theirs = await ask(upstream, asked, key);
  } catch (error) {
    throw new UpstreamUnreachable(`${upstream} could not be asked (${asked.endpoint}): ${(error as Error).cause ?? (error as Error).message}`);
  }
  const ours = await ask(mock, asked, 'drift');
  return { case: drift, findings: compareShapes(theirs, ours) };
}

export interface DriftRun {
  upstream: string;
  fixtures: readonly string[];
  /** The upstream's key (UPSTREAM_API_KEY); a stand-in without one. */
  key?: string;
}

/** Asks every case of both sides, `CONCURRENCY` at a time, and returns the results in case order. */
export async function runDrift(run: DriftRun): Promise<DriftResult[]> {
  const cases = driftCases(run.fixtures);
  const mock = await startMockServer({ fixtures: [...run.fixtures], watch: false });
  try {
    const results: DriftResult[] = new Array(cases.length);
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        results[index] = await compared(run.upstream, mock.url, cases[index]!, run.key ?? 'drift');
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, cases.length) }, worker));
    return results;
  } finally {
    await mock.close();
  }
}
