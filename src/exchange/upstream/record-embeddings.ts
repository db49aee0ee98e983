// A forwarded embeddings request kept as `embeddings:` fixtures, one per input: the upstream's
// vector as it came (base64 read back into numbers), pinned to the input by its fingerprint, so a
// recorded vector replays exactly, for the same model and size.
import { shortened } from '../../conversation/fixture-yaml.js';
import { yaml } from '../../conversation/yaml.js';
import { hashHex } from '../../conversation/random.js';
import { inputFingerprint } from '../../conversation/vectors/embed.js';
import { writeAtomically, type Recorder } from './relay.js';

/** Reads the vectors out of an answer's body, in input order; undefined when it holds none. */
export type VectorReader = (body: unknown) => number[][] | undefined;

function numbers(value: unknown): number[] | undefined {
  if (Array.isArray(value) && value.every((item) => typeof item === 'number')) return value as number[];
  if (typeof value !== 'string') return undefined;
  const bytes = Buffer.from(value, 'base64');
  return Array.from({ length: bytes.length >> 2 }, (_, i) => bytes.readFloatLE(i * 4));
}

function all(values: unknown[]): number[][] | undefined {
  const read = values.map(numbers);
  return read.every((vector): vector is number[] => vector !== undefined && vector.length > 0) ? read : undefined;
}

/** `{ data: [{ embedding }] }`, numbers or base64. */
export const openaiVectors: VectorReader = (body) => {
  const data = (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? all(data.map((item) => (item as { embedding?: unknown } | null)?.embedding)) : undefined;
};

/** `{ embedding: { values } }` or `{ embeddings: [{ values }] }`. */
export const geminiVectors: VectorReader = (body) => {
  const answer = body as { embedding?: { values?: unknown }; embeddings?: unknown } | null;
  if (answer?.embedding) return all([answer.embedding.values]);
  return Array.isArray(answer?.embeddings) ? all(answer.embeddings.map((item) => (item as { values?: unknown } | null)?.values)) : undefined;
};

export function embeddingsRecorder(model: string, texts: readonly string[], read: VectorReader): Recorder {
  return ({ status, answer }, dir) => {
    const said = answer();
    const vectors = status < 400 && 'body' in said ? read(said.body) : undefined;
    if (!vectors || vectors.length !== texts.length) return undefined;
    const name = `embeddings-${model.replace(/[^\w.-]+/g, '_')}-${hashHex(`${model}|${texts.join('\u0000')}|${vectors[0]!.length}`, 8)}`;
    const fixtures = texts.map((text, index) => ({
      name: texts.length === 1 ? name : `${name}-${index}`,
      match: { fingerprint: inputFingerprint(text), model },
      dimensions: vectors[index]!.length,
      vector: vectors[index],
    }));
    const inputs = texts.map((text, index) => `# input ${index}: ${shortened(text)}`).slice(0, 20).join('\n');
    const file = `${name}.yaml`;
    const { Document, isSeq } = yaml();
    const doc = new Document({ embeddings: fixtures });
    // A vector reads best as one line of numbers.
    fixtures.forEach((_, index) => {
      const vector = doc.getIn(['embeddings', index, 'vector'], true);
      if (isSeq(vector)) vector.flow = true;
    });
    writeAtomically(dir, file, `${inputs}\n${doc.toString({ lineWidth: 0 })}`);
    return file;
  };
}
