// A forwarded chat exchange kept as a fixture: one file per turn, named after its style, model and
// fingerprint, with the upstream's text, tool calls, usage and, for a stream, its pieces and pace.
import { chatFixtureYaml } from '../../conversation/fixture-yaml.js';
import type { ChatRequest } from '../../conversation/types.js';
import type { ChatStyle } from '../../styles/style.js';
import { chatFixtureOf, fixtureName } from '../fixture-of.js';
import { writeRecordedFixtures } from './record-file.js';
import type { Recorder } from './relay.js';

/** `asked`: the request as sent (path and body), kept beside the turn so `drift` can ask it again. */
export function chatRecorder(style: ChatStyle, request: ChatRequest, asked: { path: string; body: unknown }): Recorder {
  return ({ status, headers, answer, timing }, dir) => {
    const file = `${fixtureName(style, request)}.yaml`;
    const said = answer();
    const stream = 'events' in said && status < 400 ? timing : undefined;
    const fixture = chatFixtureOf(style, request, { status, headers, ...said }, { stream, asked });
    writeRecordedFixtures(dir, file, chatFixtureYaml(fixture));
    return file;
  };
}
