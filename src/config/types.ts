// The compiled, immutable configuration the server reads on every request. A reload builds a new
// one and swaps the reference; nothing in here is ever mutated after load.
import type { ChatFixture } from '../conversation/fixture.js';
import type { Matcher } from '../conversation/match.js';
import type { McpServerFake } from '../conversation/mcp-tools.js';
import type { TranscriptionFixture } from '../conversation/transcription-fixture.js';
import type { Pricing } from '../conversation/usage.js';
import type { LatencyProfile } from '../conversation/types.js';
import type { VideoTiming } from '../conversation/video.js';
import type { BatchFixtureSpec, EmbeddingFixtureSpec, ImageFixtureSpec, KeySpec, ModelSpec, ModerationFixtureSpec, ScenarioSpec, VideoFixtureSpec } from './schema.js';

export interface ModelEntry {
  id: string;
  ownedBy: string;
  kind: NonNullable<ModelSpec['kind']>;
  /** The vector size of an embedding model. */
  dimensions: number;
  displayName: string;
  description: string;
  inputTokenLimit: number;
  outputTokenLimit: number;
  /** Unix seconds. */
  created: number;
  reasoning: boolean;
  lifecycle: NonNullable<ModelSpec['lifecycle']>;
  /** RFC 3339, as the vendor's model object spells them; absent while none is known. */
  deprecatedAt?: string;
  retiresAt?: string;
  chatImageOutput: 'images' | 'markdown';
  timing?: Partial<VideoTiming>;
  pricing?: Pricing;
  /** Its streams' pauses under `--latency realistic`. */
  latency?: LatencyProfile;
}

/** A compiled entry of a section other than `chat`: its spec, where it came from, its matcher. */
export interface Compiled<S> {
  name: string;
  file: string;
  /** The directory the file was found in, where its file references resolve. */
  dir: string;
  order: number;
  priority: number;
  matcher: Matcher;
  spec: S;
}

/** A `batches:` entry: the timing it gives the batches it matches, first in file order. */
export interface BatchFixture {
  name: string;
  file: string;
  spec: BatchFixtureSpec;
}

export interface ConfigProblem {
  file: string;
  line: number;
  col: number;
  message: string;
}

export interface Config {
  /** In the order given; the first is where fixtures are saved. */
  fixturesDirs: readonly string[];
  scenariosDirs: readonly string[];
  /** Files loaded, relative to their directory's parent for fixtures and scenarios alike. */
  files: string[];
  models: ModelEntry[];
  modelById: ReadonlyMap<string, ModelEntry>;
  /** Undefined in open mode (no `keys` section): any non-empty key is accepted. */
  keys: ReadonlyMap<string, KeySpec> | undefined;
  /** Sorted: highest priority first, then file order. */
  chat: readonly ChatFixture[];
  images: readonly Compiled<ImageFixtureSpec>[];
  videos: readonly Compiled<VideoFixtureSpec>[];
  embeddings: readonly Compiled<EmbeddingFixtureSpec>[];
  moderations: readonly Compiled<ModerationFixtureSpec>[];
  /** Sorted like `chat`. */
  transcriptions: readonly TranscriptionFixture[];
  batches: readonly BatchFixture[];
  scenarios: ReadonlyMap<string, Compiled<ScenarioSpec>>;
  chatCompletionsOnlyGroups: readonly string[];
  /** The fake tool servers by name (SPEC 22). */
  mcp: ReadonlyMap<string, McpServerFake>;
}
