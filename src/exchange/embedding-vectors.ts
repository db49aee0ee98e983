// The vector of each text for a model: an `embeddings:` fixture's (`like` another text's vector,
// or its `vector` as given), else the text's own hashed-feature vector. Embeddings in both forms
// and rerank read vectors here, so a fixture moves a text the same way everywhere.
import { firstMatch } from '../conversation/fixture.js';
import { promptSubject } from '../conversation/subject.js';
import { embedText, inputFingerprint, shorten, vectorSalt } from '../conversation/vectors/embed.js';
import { RecentBytes } from '../media/recent-bytes.js';
import type { Mock } from './mock.js';
import type { Found } from './operation.js';

/**
 * Vectors made lately: a corpus is embedded again by every test that loads it, and rerank scores
 * the same documents for each query. Texts longer than `REMEMBERED_TEXT` are made each time, so
 * the keys stay small; 4 MB holds about 700 vectors of 1,536 components.
 */
const recent = new RecentBytes<{ data: Float32Array }>('vectors', 1024, 4 * 1024 * 1024);
const REMEMBERED_TEXT = 2048;

export interface VectorAsk {
  /** What fixtures match. */
  text: string;
  /** What a generated vector is built from, when not the text itself. */
  embedded?: string;
  /** The components wanted: the model's size, or fewer when the request shortens. */
  size: number;
}

export interface Vectors {
  vectors: Float32Array[];
  /** The first fixture that answered an input, for the journal and `x-mock-source`. */
  fixture: string | undefined;
  /** Whether every input was answered by a fixture (else, with --upstream, the request is forwarded). */
  allFixed: boolean;
}

/** A vector of the model's `full` size, shortened to `size` and renormalized, as the vendors do. Never changed once made. */
function generated(text: string, salt: number, full: number, size: number): Float32Array {
  const make = () => {
    const vector = embedText(text, salt, full);
    return { data: size < full ? shorten(vector, size) : vector };
  };
  if (text.length > REMEMBERED_TEXT) return make().data;
  return recent.rememberedNow(`${salt}:${full}:${size}:${text}`, make).data;
}

export function vectorsFor(mock: Mock, model: { id: string; dimensions: number }, asks: readonly VectorAsk[], headers: Record<string, string>): Vectors {
  const fixtures = mock.store.current.embeddings;
  const salt = vectorSalt(model.id, mock.options.seed);
  let fixture: string | undefined;
  let allFixed = true;
  const vectors = asks.map((ask) => {
    const hit = fixtures.length === 0 ? undefined : firstMatch(fixtures, promptSubject(model.id, ask.text, headers, inputFingerprint(ask.text)))?.fixture;
    const given = hit?.spec.vector;
    // A vector shorter than what is asked cannot answer it: the text's own vector does.
    if (!hit || (given && given.length < ask.size)) {
      allFixed = false;
      return generated(ask.embedded ?? ask.text, salt, model.dimensions, ask.size);
    }
    fixture ??= hit.name;
    if (given) return given.length === ask.size ? Float32Array.from(given) : shorten(given, ask.size);
    return generated(hit.spec.like!, salt, model.dimensions, ask.size);
  });
  return { vectors, fixture, allFixed };
}

/** What finding the vectors tells the template: fixtures answer only when every input had one. */
export function foundVectors(vectors: Vectors): Found<Vectors> {
  return { found: vectors, answered: vectors.allFixed, ...(vectors.allFixed && { notes: { fixture: vectors.fixture ?? null } }) };
}
