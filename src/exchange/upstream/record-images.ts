// A forwarded image generation kept as an `images:` fixture: the first picture the upstream
// answered, byte for byte, under media/, matched by the request's model and prompt.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { shortened } from '../../conversation/fixture-yaml.js';
import { yaml } from '../../conversation/yaml.js';
import { hashHex } from '../../conversation/random.js';
import { sniffImageType } from '../../media/png.js';
import { writeRecordedFixtures } from './record-file.js';
import { writeAtomically, type Recorder } from './relay.js';

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

export function imagesRecorder(model: string, prompt: string): Recorder {
  return ({ status, answer }, dir) => {
    const said = answer();
    if (status >= 400 || !('body' in said)) return undefined;
    const first = (said.body as { data?: Array<{ b64_json?: unknown }> } | null)?.data?.[0]?.b64_json;
    if (typeof first !== 'string') return undefined;
    const bytes = Buffer.from(first, 'base64');
    const type = sniffImageType(bytes);
    if (!type) return undefined;
    const name = `images-${model.replace(/[^\w.-]+/g, '_')}-${hashHex(`${model}|${prompt}`, 8)}`;
    const picture = `media/${name}.${EXTENSIONS[type]}`;
    mkdirSync(join(dir, 'media'), { recursive: true });
    writeAtomically(dir, picture, bytes);
    const fixture = { images: [{ name, match: { model, contains: prompt }, reply: { file: picture } }] };
    const file = `${name}.yaml`;
    writeRecordedFixtures(dir, file, `# prompt: ${shortened(prompt)}\n${yaml().stringify(fixture)}`);
    return file;
  };
}
