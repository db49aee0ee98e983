// Compiling validated YAML into the immutable Config: defaults filled in, matchers and templates
// compiled, fixture tokens counted, file references checked, sections merged across files.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { CompileError, compileChatFixture, sortFixtures, type ChatFixture } from '../conversation/fixture.js';
import { indexFixtures } from '../conversation/fixture-index.js';
import { compileMatch, type MatchSpec } from '../conversation/match.js';
import { resolveInside } from './files.js';
import type { VideoTiming } from '../conversation/video.js';
import type { FixturesFile, KeySpec, ModelSpec, ScenarioSpec, ScenariosFile, VideoTimingSpec } from './schema.js';
import type { Compiled, Config, ModelEntry } from './types.js';

export interface ParsedFile {
  file: string;
  /** The directory it was found in: its file references resolve inside it. */
  dir: string;
  kind: 'fixtures' | 'scenarios';
  data: FixturesFile & ScenariosFile;
}

/** A compile problem inside one file: the file and the YAML path of the bad value. */
export class LocatedError extends CompileError {
  constructor(
    readonly file: string,
    path: Array<string | number>,
    message: string,
  ) {
    super(path, message);
  }
}

const DEFAULT_CATALOG = fileURLToPath(new URL('../../fixtures/models.yaml', import.meta.url));
let defaultModels: ModelSpec[] | undefined;

/** The repo's own catalog, used when a fixtures directory declares no models. */
function catalog(): ModelSpec[] {
  return (defaultModels ??= (parse(readFileSync(DEFAULT_CATALOG, 'utf8')) as FixturesFile).models ?? []);
}

function ownerOf(id: string): string {
  if (/^(gpt|o\d|dall-e|sora|chatgpt)/.test(id)) return 'openai';
  if (id.startsWith('claude')) return 'anthropic';
  if (/^(gemini|imagen|veo)/.test(id)) return 'google';
  return 'system';
}

export function toModelEntry(spec: ModelSpec): ModelEntry {
  return {
    id: spec.id,
    ownedBy: spec.owned_by ?? ownerOf(spec.id),
    kind: spec.kind ?? 'chat',
    displayName: spec.display_name ?? spec.id,
    description: spec.description ?? '',
    inputTokenLimit: spec.input_token_limit ?? 128_000,
    outputTokenLimit: spec.output_token_limit ?? 16_384,
    // A fixed default keeps model lists byte-identical from run to run.
    created: spec.created ?? 1_700_000_000,
    reasoning: spec.reasoning ?? false,
    lifecycle: spec.lifecycle ?? 'active',
    chatImageOutput: spec.chat_image_output ?? 'images',
    timing: videoTiming(spec.timing),
  };
}

/** A `timing:` block of a model or a videos fixture, as the tasks read it. */
export function videoTiming(spec: VideoTimingSpec | undefined): Partial<VideoTiming> | undefined {
  return spec && { queuedMs: spec.queued_ms, runMs: spec.run_ms, progressBy: spec.progress_by, step: spec.step };
}

function located<T>(file: string, path: Array<string | number>, compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    if (error instanceof CompileError) throw new LocatedError(file, [...path, ...error.path], error.message);
    throw new LocatedError(file, path, (error as Error).message);
  }
}

interface Entry {
  name?: string;
  match?: MatchSpec;
  priority?: number;
}

function compileEntry<S extends Entry>(spec: S, { file, dir }: ParsedFile, path: Array<string | number>, order: number): Compiled<S> {
  return {
    name: spec.name ?? `${file}#${order}`,
    file,
    dir,
    order,
    priority: spec.priority ?? 0,
    matcher: located(file, [...path, 'match'], () => compileMatch(spec.match)),
    spec,
  };
}

/**
 * Compiles every entry it can and reports every entry it cannot, so that the problems of all files
 * come out in one pass. `complete` is false when some files did not parse: checks across files
 * (a key naming a scenario) would then report what is only missing for now.
 */
export function compileConfig(
  parsed: ParsedFile[],
  dirs: { fixturesDirs: readonly string[]; scenariosDirs: readonly string[] },
  files: string[],
  complete = true,
): { config?: Config; errors: LocatedError[] } {
  const errors: LocatedError[] = [];
  const attempt = (work: () => void): void => {
    try {
      work();
    } catch (error) {
      if (!(error instanceof LocatedError)) throw error;
      errors.push(error);
    }
  };
  const modelById = new Map<string, ModelEntry>();
  const keys = new Map<string, KeySpec>();
  let keysDeclared = false;
  const chat: ChatFixture[] = [];
  const images: Array<Config['images'][number]> = [];
  const videos: Array<Config['videos'][number]> = [];
  const scenarios = new Map<string, Compiled<ScenarioSpec>>();
  let onlyGroups: string[] | undefined;
  let order = 0;
  // Scenario files may come after the key that names one: checked once everything is read.
  const keyScenarios: Array<{ file: string; index: number; name: string }> = [];
  const checkFile = ({ file, dir }: ParsedFile, path: Array<string | number>, reference: string | undefined) => {
    if (reference !== undefined) located(file, path, () => resolveInside(dir, reference));
  };

  for (const source of parsed) {
    const { file, data } = source;
    data.models?.forEach((spec, i) =>
      attempt(() => {
        if (modelById.has(spec.id)) throw new LocatedError(file, ['models', i, 'id'], `model "${spec.id}" is declared twice`);
        modelById.set(spec.id, toModelEntry(spec));
      }),
    );
    if (data.keys) keysDeclared = true;
    data.keys?.forEach((spec, i) =>
      attempt(() => {
        if (keys.has(spec.key)) throw new LocatedError(file, ['keys', i, 'key'], 'this key is declared twice');
        keys.set(spec.key, spec);
        if (spec.scenario !== undefined) keyScenarios.push({ file, index: i, name: spec.scenario });
      }),
    );
    data.chat?.forEach((spec, i) => attempt(() => chat.push(located(file, ['chat', i], () => compileChatFixture(spec, file, order++)))));
    data.images?.forEach((spec, i) =>
      attempt(() => {
        if ('file' in spec.reply) checkFile(source, ['images', i, 'reply', 'file'], spec.reply.file);
        images.push(compileEntry(spec, source, ['images', i], order++));
      }),
    );
    data.videos?.forEach((spec, i) =>
      attempt(() => {
        checkFile(source, ['videos', i, 'reply', 'file'], spec.reply?.file);
        checkFile(source, ['videos', i, 'reply', 'thumbnail'], spec.reply?.thumbnail);
        videos.push(compileEntry(spec, source, ['videos', i], order++));
      }),
    );
    if (data.image_generation?.chat_completions_only_groups) onlyGroups = data.image_generation.chat_completions_only_groups;
    data.scenarios?.forEach((spec, i) =>
      attempt(() => {
        if (scenarios.has(spec.name)) throw new LocatedError(file, ['scenarios', i, 'name'], `scenario "${spec.name}" is declared twice`);
        scenarios.set(spec.name, compileEntry(spec, source, ['scenarios', i], order++));
      }),
    );
  }

  for (const { file, index, name } of complete ? keyScenarios : []) {
    if (!scenarios.has(name)) errors.push(new LocatedError(file, ['keys', index, 'scenario'], `no scenario is named "${name}"; scenarios: ${[...scenarios.keys()].join(', ') || 'none'}`));
  }
  if (errors.length > 0) return { errors };
  if (modelById.size === 0) for (const spec of catalog()) modelById.set(spec.id, toModelEntry(spec));
  const config: Config = {
    fixturesDirs: dirs.fixturesDirs,
    scenariosDirs: dirs.scenariosDirs,
    files,
    models: [...modelById.values()],
    modelById,
    keys: keysDeclared ? keys : undefined,
    chat: indexFixtures(sortFixtures(chat)),
    images: indexFixtures(sortFixtures(images)),
    videos: indexFixtures(sortFixtures(videos)),
    scenarios,
    chatCompletionsOnlyGroups: onlyGroups ?? ['special-price'],
  };
  return { config, errors };
}
