// `GET /__admin/requests/{id}/fixture` and `POST /__admin/requests/{id}/fixture`: any journaled
// chat request becomes a fixture that gives that same answer to that same request (matched by
// its fingerprint), whatever answered it: a fixture, the generator, a scenario's error.
import { join } from 'node:path';
import { fixturesTextProblems } from '../../config/check-text.js';
import { formatProblem } from '../../config/store.js';
import { failure } from '../../conversation/errors.js';
import { chatFixtureYaml, type ChatFixtureDocument } from '../../conversation/fixture-yaml.js';
import type { ChatRequest } from '../../conversation/types.js';
import type { JournalEntry, SentResponse } from '../../state/journal.js';
import { chatParams, styleEntry } from '../../styles/registry.js';
import type { ChatStyle, StyleInput } from '../../styles/style.js';
import { askedAgain, chatFixtureOf } from '../fixture-of.js';
import type { Mock } from '../mock.js';
import { fixturePath, writeNewFixtureFile } from './fixture-file.js';
import { findJournalEntry, type FoundEntry } from './journal-page.js';
import { TextAnswer, type AdminRequest } from './request.js';

/** The chat style that answered the entry, as it noted it, and the path parameters its decoder reads. */
function chatRoute(entry: JournalEntry): { style: ChatStyle; params: Record<string, string> } | undefined {
  const registered = entry.method === 'POST' && entry.style !== null ? styleEntry(entry.style) : undefined;
  const params = registered && chatParams(registered, entry.path);
  return params && { style: registered.style, params };
}

function notPinnable(entry: JournalEntry, why: string) {
  return failure('request_not_pinnable', `Request ${entry.id} (${entry.method} ${entry.path}) cannot become a chat fixture: ${why}.`);
}

function decoded({ entry, session }: FoundEntry): { style: ChatStyle; request: ChatRequest; response: SentResponse } {
  const route = chatRoute(entry);
  if (!route) throw notPinnable(entry, 'only chat requests in the four styles become fixtures');
  if (!entry.response) throw notPinnable(entry, 'nothing was answered to it');
  const input: StyleInput = { body: entry.body, query: {}, headers: {}, params: route.params };
  try {
    return { style: route.style, request: route.style.decode(input, { storedTurns: (id) => session.responses.get(id)?.turns }), response: entry.response };
  } catch (error) {
    throw notPinnable(entry, `its body is not a valid ${route.style.name} request (${(error as Error).message})`);
  }
}

function pinnedFixture(found: FoundEntry, name?: string): ChatFixtureDocument {
  const { style, request, response } = decoded(found);
  const [path, search = ''] = found.entry.path.split('?');
  return chatFixtureOf(style, request, response, { name, asked: askedAgain(path!, search, found.entry.body) });
}

function entryId(request: AdminRequest): string {
  return request.params?.id ?? '';
}

/** The fixture's YAML as `path` in the first fixtures directory; refused when the loader would not load it. */
function loadableYaml(mock: Mock, found: FoundEntry, fixture: ChatFixtureDocument, path: string): string {
  const yaml = chatFixtureYaml(fixture);
  const problems = fixturesTextProblems(yaml, path, mock.store.current.fixturesDirs[0]!);
  if (problems.length > 0) throw notPinnable(found.entry, `the fixture it gives would not load (${problems.map(formatProblem).join('; ')})`);
  return yaml;
}

export function requestFixture(mock: Mock, request: AdminRequest): TextAnswer {
  const found = findJournalEntry(mock.sessions.all(), entryId(request));
  const fixture = pinnedFixture(found);
  return new TextAnswer('text/yaml; charset=utf-8', loadableYaml(mock, found, fixture, join(mock.store.current.fixturesDirs[0]!, `${fixture.name}.yaml`)));
}

export function saveRequestFixture(mock: Mock, request: AdminRequest): unknown {
  const found = findJournalEntry(mock.sessions.all(), entryId(request));
  const file = (request.body as { file?: unknown } | null | undefined)?.file;
  const { path, name } = fixturePath(mock.store.current.fixturesDirs[0]!, file);
  const fixture = pinnedFixture(found, name);
  writeNewFixtureFile(path, file as string, loadableYaml(mock, found, fixture, path));
  mock.store.loadOwnWrite(path);
  return { file, name: fixture.name, fingerprint: fixture.match.fingerprint };
}
