// `GET /__admin/fixtures` lists every fixture (files and run-time ones); `POST /__admin/fixtures`
// takes the same document as a fixtures YAML file, as JSON, and adds its chat fixtures for one
// session (default: `default`), checked by the same schema as the files; with `?file=NAME.yaml`
// it is written into the fixtures directory instead (fixture-file.ts).
import { failure, MockError } from '../../conversation/errors.js';
import { CompileError, compileChatFixture, sortFixtures, type ChatFixture } from '../../conversation/fixture.js';
import { formatPath } from '../../conversation/field-path.js';
import { displayPath } from '../../config/load.js';
import { checkAgainst } from '../../config/issues.js';
import { fileSchemas } from '../../config/schema.js';
import { FIXTURE_SECTIONS } from '../../config/summary.js';
import { addRuntimeFixtures, MAX_RUNTIME_FIXTURES } from '../../state/session.js';
import { DEFAULT_SESSION } from '../../state/sessions.js';
import type { Mock } from '../mock.js';
import { saveFixturesFile } from './fixture-file.js';
import { sessionParam, type AdminRequest } from './request.js';

/** Where run-time fixtures say they come from. */
const RUNTIME_FILE = 'POST /__admin/fixtures';

interface FixtureListing {
  name: string;
  file: string;
  section: 'chat' | 'images' | 'videos' | 'transcriptions' | 'embeddings' | 'moderations';
  priority: number;
  session: string | null;
}

type Listed = { name: string; file: string; priority: number; session?: string };

function listing(section: FixtureListing['section'], fixture: Listed): FixtureListing {
  const runtime = fixture.session !== undefined;
  return {
    name: fixture.name,
    file: runtime ? fixture.file : displayPath(fixture.file),
    section,
    priority: fixture.priority,
    session: fixture.session ?? null,
  };
}

export function listFixtures(mock: Mock, request: AdminRequest): unknown {
  const config = mock.store.current;
  const id = sessionParam(request);
  const sessions = id === undefined ? mock.sessions.all() : [mock.sessions.peek(id)].filter((s) => s !== undefined);
  return {
    fixtures: [
      ...sessions.flatMap((session) => session.fixtures.map((f) => listing('chat', f))),
      ...FIXTURE_SECTIONS.flatMap((section) => (config[section] as readonly Listed[]).map((f) => listing(section, f))),
    ],
  };
}

function problem(message: string, param?: string): MockError {
  return failure('invalid_fixtures', message, { param });
}

/** Validates and compiles the posted document; every problem is named, as `validate` would. */
function compilePosted(body: unknown, session: string, firstOrder: number): ChatFixture[] {
  const parsed = checkAgainst(fileSchemas().fixturesFileSchema, body ?? {});
  if (parsed.issues) {
    const problems = parsed.issues.map((issue) => `${formatPath(issue.path) || 'body'}: ${issue.message}`);
    throw problem(`The fixtures are not valid: ${problems.join('; ')}.`, formatPath(parsed.issues[0]!.path) || undefined);
  }
  const others = Object.keys(parsed.data).filter((section) => section !== 'chat');
  if (others.length > 0) {
    throw problem(`Only chat fixtures can be added at run time; ${others.join(', ')} stay in the fixture files.`, others[0]);
  }
  // An empty body is a client that forgot its document, not a request to add nothing.
  if (!parsed.data.chat) throw problem('The body holds no fixtures: post a fixtures document such as {"chat": [{"match": ..., "reply": ...}]}.', 'chat');
  return parsed.data.chat.map((spec, i) => {
    try {
      return compileChatFixture(spec, RUNTIME_FILE, firstOrder + i, session);
    } catch (error) {
      if (!(error instanceof CompileError)) throw error;
      const path = formatPath(['chat', i, ...error.path]);
      throw problem(`The fixtures are not valid: ${path}: ${error.message}.`, path);
    }
  });
}

export function addFixtures(mock: Mock, request: AdminRequest): unknown {
  if (request.query.file !== undefined) return saveFixturesFile(mock, request.query.file, request.body);
  const session = mock.sessions.heard(sessionParam(request) ?? DEFAULT_SESSION);
  const firstOrder = session.fixtures.reduce((max, f) => Math.max(max, f.order + 1), 0);
  const added = compilePosted(request.body, session.id, firstOrder);
  if (session.fixtures.length + added.length > MAX_RUNTIME_FIXTURES) {
    throw problem(
      `A session holds at most ${MAX_RUNTIME_FIXTURES} run-time fixtures; session '${session.id}' has ${session.fixtures.length}. ` +
        'Reset it (POST /__admin/reset?session=ID) or put the fixtures in a file.',
      'chat',
    );
  }
  // Each fixture holds about its share of the posted document, compiled.
  const bytesEach = 512 + Math.ceil((request.bodySize ?? 0) / Math.max(1, added.length));
  addRuntimeFixtures(session, sortFixtures([...session.fixtures, ...added]), added, bytesEach);
  return { fixtures: added.map((f) => listing('chat', f)) };
}
