// An `embeddings:` fixture's `vector` must be long enough for every request it may answer: its own
// `dimensions`, or else the size of each embedding model its `match.model` takes. Checked once the
// catalog of all files is known, since a model may be declared in another file.
import { promptSubject } from '../conversation/subject.js';
import type { EmbeddingFixtureSpec } from './schema.js';
import type { Compiled, ModelEntry } from './types.js';

export interface ShortVector {
  fixture: Compiled<EmbeddingFixtureSpec>;
  message: string;
}

/** The vector size the fixture promises to answer. */
export function askedDimensions(fixture: Compiled<EmbeddingFixtureSpec>, models: readonly ModelEntry[]): { size: number; model?: string } | undefined {
  if (fixture.spec.dimensions !== undefined) return { size: fixture.spec.dimensions };
  let widest: { size: number; model?: string } | undefined;
  for (const model of models) {
    if (model.kind !== 'embedding' || fixture.matcher.diagnose(promptSubject(model.id, '', {})).includes('model')) continue;
    if (!widest || model.dimensions > widest.size) widest = { size: model.dimensions, model: model.id };
  }
  return widest;
}

export function shortVectors(fixtures: ReadonlyArray<Compiled<EmbeddingFixtureSpec>>, models: readonly ModelEntry[]): ShortVector[] {
  const short: ShortVector[] = [];
  for (const fixture of fixtures) {
    const vector = fixture.spec.vector;
    const asked = vector && askedDimensions(fixture, models);
    if (!vector || !asked || vector.length >= asked.size) continue;
    const why = asked.model ? `the ${asked.size} dimensions of ${asked.model}, a model its match takes` : `its dimensions, ${asked.size}`;
    short.push({ fixture, message: `vector has ${vector.length} numbers, fewer than ${why}; give more numbers, or \`dimensions\` and a match.model` });
  }
  return short;
}
