// The vector of each text for a model: an `embeddings:` fixture's (`like` another text's vector,
// or its `vector` as given), else the text's own hashed-feature vector. Embeddings in both forms
// and rerank read vectors here, so a fixture moves a text the same way everywhere. Finding says
// where each vector comes from; the vectors are made when the answer is built, in slices: 2,048
// inputs took seconds of one turn.
import { firstMatch } from '../conversation/fixture.js';
import { promptSubject } from '../conversation/subject.js';
import { embedText, inputFingerprint, shorten, vectorSalt } from '../conversation/vectors/embed.js';
import { RecentBytes } from '../media/recent-bytes.js';
import { Slice } from '../state/event-loop.js';
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

/** Where one input's vector comes from: a fixture's, as given, or the text it is made from. */
type VectorSource = Float32Array | { text: string; salt: number; full: number; size: number };

export interface Vectors {
  /** One per input, in order: `madeVectors` makes them. */
  sources: VectorSource[];
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
  const sources = asks.map((ask): VectorSource => {
    const hit = fixtures.length === 0 ? undefined : firstMatch(fixtures, promptSubject(model.id, ask.text, headers, inputFingerprint(ask.text)))?.fixture;
    const given = hit?.spec.vector;
    // A vector shorter than what is asked cannot answer it: the text's own vector does.
    if (!hit || (given && given.length < ask.size)) {
      allFixed = false;
      return { text: ask.embedded ?? ask.text, salt, full: model.dimensions, size: ask.size };
    }
    fixture ??= hit.name;
    if (given) return given.length === ask.size ? Float32Array.from(given) : shorten(given, ask.size);
    return { text: hit.spec.like!, salt, full: model.dimensions, size: ask.size };
  });
  return { sources, fixture, allFixed };
}

/** Each input's vector, made a few at a time, with other clients' work between. */
export async function madeVectors({ sources }: Vectors): Promise<Float32Array[]> {
  const slice = new Slice();
  const vectors: Float32Array[] = [];
  for (const source of sources) {
    if (slice.over) await slice.next();
    vectors.push(source instanceof Float32Array ? source : generated(source.text, source.salt, source.full, source.size));
  }
  return vectors;
}

/** What finding the vectors tells the template: fixtures answer only when every input had one. */
export function foundVectors(vectors: Vectors): Found<Vectors> {
  return { found: vectors, answered: vectors.allFixed, ...(vectors.allFixed && { notes: { fixture: vectors.fixture ?? null } }) };
}
