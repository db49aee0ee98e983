// A video task made by the upstream, recorded when its content is downloaded: the MP4 under
// media/ and a `videos:` fixture matched by model and prompt, with the time the task took.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { shortened } from '../../conversation/fixture-yaml.js';
import { yaml } from '../../conversation/yaml.js';
import { hashHex } from '../../conversation/random.js';
import { putBounded, type Session } from '../../state/session.js';
import { writeRecordedFixtures } from './record-file.js';
import { writeAtomically, type Recorder } from './relay.js';

/** A session remembers this many upstream tasks for their recording; older ones are not recorded. */
const REMEMBERED = 100;

/** Keeps what a forwarded task was asked, by the id the upstream gave it. */
export function rememberTask(session: Session, model: string, prompt: string, createdMs: number): Recorder {
  return ({ status, answer }) => {
    const said = answer();
    const id = 'body' in said ? (said.body as { id?: unknown } | null)?.id : undefined;
    if (status < 400 && typeof id === 'string') putBounded(session.upstreamTasks, id, { model, prompt, createdMs }, REMEMBERED);
    return undefined;
  };
}

export function videoRecorder(session: Session, id: string, nowMs: number): Recorder {
  return ({ status, bytes }, dir) => {
    const asked = session.upstreamTasks.get(id);
    if (status !== 200 || !asked) return undefined;
    const name = `videos-${asked.model.replace(/[^\w.-]+/g, '_')}-${hashHex(`${asked.model}|${asked.prompt}`, 8)}`;
    const clip = `media/${name}.mp4`;
    mkdirSync(join(dir, 'media'), { recursive: true });
    writeAtomically(dir, clip, bytes());
    // The task ran at most from its creation to its download, on the mock clock.
    const fixture = { videos: [{ name, match: { model: asked.model, contains: asked.prompt }, timing: { queued_ms: 0, run_ms: Math.max(0, nowMs - asked.createdMs) }, reply: { file: clip } }] };
    const file = `${name}.yaml`;
    writeRecordedFixtures(dir, file, `# prompt: ${shortened(asked.prompt)}\n${yaml().stringify(fixture)}`);
    return file;
  };
}
