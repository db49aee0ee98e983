// The tools' answers, written for a model to read: short sentences and compact tables rather
// than the admin API's JSON.
import type { JournalEntry } from '../../state/journal.js';

interface Health {
  status: string;
  reloads: number;
  loaded_at: string;
  files: string[];
  errors: Array<{ file: string; line: number; col: number; message: string }>;
}

/** A Markdown table; `|` inside a cell is escaped so the columns hold. */
export function table(columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  const cell = (value: unknown) => (value === null || value === undefined ? '-' : String(value)).replaceAll('|', '\\|');
  return [columns.join(' | '), columns.map(() => '---').join(' | '), ...rows.map((row) => row.map(cell).join(' | '))].join('\n');
}

export function healthText(health: Health): string {
  const state =
    health.errors.length === 0 ? 'The mock is ok.' : 'The mock is degraded: the last reload failed, and the last good configuration still serves.';
  const errors = health.errors.length === 0 ? 'Errors: none.' : ['Errors:', ...health.errors.map((e) => `- ${e.file}:${e.line}:${e.col}: ${e.message}`)].join('\n');
  return [
    state,
    `Configuration loaded at ${health.loaded_at}; reload count ${health.reloads}.`,
    `Files (${health.files.length}): ${health.files.join(', ') || 'none'}.`,
    errors,
  ].join('\n');
}

function sourceSentence(entry: JournalEntry): string {
  const source = entry.source;
  if (source.startsWith('fixture:')) return `The answer came from the fixture '${entry.fixture ?? source.slice('fixture:'.length)}' (x-mock-source: ${source}).`;
  if (source.startsWith('shape:')) return `No fixture matched exactly, so the recorded turn '${source.slice('shape:'.length)}' of the same conversation shape answered (x-mock-source: ${source}).`;
  if (source.startsWith('scenario:')) return `The answer came from a scenario step (x-mock-source: ${source}).`;
  if (source === 'generated') return 'No fixture matched, so the mock generated the reply (x-mock-source: generated).';
  if (source === 'upstream' && entry.upstream) {
    return `The request was forwarded upstream to ${entry.upstream.url}, which answered ${entry.upstream.status} in ${entry.upstream.duration_ms} ms (x-mock-source: upstream).`;
  }
  return `The answer's source: ${source} (x-mock-source).`;
}

function nearMissSentence(entry: JournalEntry): string | undefined {
  const miss = entry.near_miss;
  if (!miss) return entry.source === 'generated' ? 'No fixture came close to matching.' : undefined;
  return `The closest fixture was '${miss.fixture}' (${miss.file}); the match keys that failed: ${miss.failed.join(', ')}.`;
}

function scenarioSentence(entry: JournalEntry): string {
  if (!entry.scenario) return 'No scenario was active.';
  if (entry.scenario_step === null) return `The scenario '${entry.scenario}' was active, but none of its steps applied.`;
  return `The scenario '${entry.scenario}' was active and its step ${entry.scenario_step} (counting from 0) applied.`;
}

export function explanation(entry: JournalEntry): string {
  const what = [entry.style && `style ${entry.style}`, entry.model && `model ${entry.model}`].filter(Boolean).join(', ');
  const status = entry.status === 499 ? 'the client left before the answer (499)' : entry.status === 0 ? 'no answer: the socket was dropped' : `answered ${entry.status}`;
  return [
    `${entry.method} ${entry.path} (${entry.id}) in session '${entry.session}' at ${entry.time}${what ? `, ${what}` : ''}: ${status} in ${entry.duration_ms} ms.`,
    sourceSentence(entry),
    nearMissSentence(entry),
    scenarioSentence(entry),
    entry.fault ? `The fault '${entry.fault}' fired.` : 'No fault fired.',
    entry.upstream_refused ? `The upstream was not used: ${entry.upstream_refused}.` : undefined,
    entry.recorded ? `The exchange was recorded into ${entry.recorded}.` : undefined,
  ]
    .filter((line) => line !== undefined)
    .join('\n');
}

export function journalTable(entries: readonly JournalEntry[], total: number): string {
  if (total === 0) return 'The journal holds no requests that match.';
  const requests = total === 1 ? 'request' : 'requests';
  const heading = entries.length < total ? `The latest ${entries.length} of ${total} matching ${requests}, oldest first:` : `${total} matching ${requests}, oldest first:`;
  const rows = entries.map((e) => [e.id, e.time, e.session, e.method, e.path, e.status, e.source]);
  return `${heading}\n\n${table(['id', 'time', 'session', 'method', 'path', 'status', 'source'], rows)}`;
}
