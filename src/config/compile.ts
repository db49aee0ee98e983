// Compiling validated YAML into the immutable Config: defaults filled in, matchers and templates
// compiled, fixture tokens counted, file references checked, sections merged across files.
import { CompileError, compileChatFixture, sortFixtures, type ChatFixture } from '../conversation/fixture.js';
import { indexFixtures } from '../conversation/fixture-index.js';
import { compileMatch, type MatchSpec } from '../conversation/match.js';
import { compileMcpServer, type McpServerFake } from '../conversation/mcp-tools.js';
import { compileTranscriptionFixture, type TranscriptionFixture } from '../conversation/transcription-fixture.js';
import { resolveInside } from './files.js';
import { defaultCatalog } from './default-catalog.js';
import { shortVectors } from './vector-check.js';
import { toModelEntry } from './model-entry.js';
import { FIXTURE_SECTIONS } from './summary.js';
import type { FixturesFile, KeySpec, ScenarioSpec, ScenariosFile } from './schema.js';
import type { BatchFixture, Compiled, Config, ModelEntry } from './types.js';

export interface ParsedFile {
  file: string;
  /** The directory it was found in: its file references resolve inside it. */
  dir: string;
  kind: 'fixtures' | 'scenarios';
  data: FixturesFile & ScenariosFile;
  /** One of the package's own files, byte for byte: what needs ajv was checked at build. */
  shipped?: true;
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

function locatedAt(file: string, path: Array<string | number>, error: unknown): LocatedError {
  if (error instanceof CompileError) return new LocatedError(file, [...path, ...error.path], error.message);
  return new LocatedError(file, path, (error as Error).message);
}

function located<T>(file: string, path: Array<string | number>, compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    throw locatedAt(file, path, error);
  }
}

/**
 * `match.tool` picks a call of a fake MCP tool, which only scenarios answer (SPEC 22): on a
 * fixture the key would load and never match.
 */
function toolMatchesOnFixtures(file: string, data: ParsedFile['data']): LocatedError[] {
  return FIXTURE_SECTIONS.flatMap((section) =>
    ((data[section] ?? []) as ReadonlyArray<{ match?: object }>).flatMap((spec, i) =>
      spec.match !== undefined && 'tool' in spec.match
        ? [new LocatedError(file, [section, i, 'match', 'tool'], `a fixture never answers a tool call: give the tool's replies under its \`mcp:\` server, or match the call in a scenario`)]
        : [],
    ),
  );
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
 * One file compiled on its own, its entries numbered from 0 in file order (chat, images, videos,
 * transcriptions, scenarios): a reload recompiles only the files that changed and renumbers the others.
 */
export interface CompiledFile {
  source: ParsedFile;
  models: ModelEntry[];
  keys: KeySpec[];
  chat: ChatFixture[];
  images: Array<Config['images'][number]>;
  videos: Array<Config['videos'][number]>;
  embeddings: Array<Config['embeddings'][number]>;
  moderations: Array<Config['moderations'][number]>;
  transcriptions: TranscriptionFixture[];
  batches: BatchFixture[];
  scenarios: Array<Compiled<ScenarioSpec>>;
  mcp: McpServerFake[];
  /** How many entries the file numbers, compiled or not. */
  entries: number;
  onlyGroups?: string[];
  errors: LocatedError[];
  /** Where its entries are numbered from: 0 as compiled, then its place among all files at the last merge. */
  offset: number;
}

function attempting(errors: LocatedError[]) {
  return (work: () => void): void => {
    try {
      work();
    } catch (error) {
      if (!(error instanceof LocatedError)) throw error;
      errors.push(error);
    }
  };
}

const NUMBERED = ['chat', 'images', 'videos', 'transcriptions', 'embeddings', 'moderations', 'scenarios'] as const;

/** A file's entries in the order they are numbered. */
function numbered(data: ParsedFile['data']): ReadonlyArray<{ name?: string }> {
  return NUMBERED.flatMap((section): ReadonlyArray<{ name?: string }> => data[section] ?? []);
}

export function compileFile(source: ParsedFile): CompiledFile {
  const { file, data } = source;
  const errors: LocatedError[] = [];
  const attempt = attempting(errors);
  const compiled: CompiledFile = { source, models: [], keys: [], chat: [], images: [], videos: [], transcriptions: [], embeddings: [], moderations: [], batches: [], scenarios: [], mcp: [], entries: 0, offset: 0, errors };
  let order = 0;
  const checkFile = (path: Array<string | number>, reference: string | undefined) => {
    if (reference !== undefined) located(file, path, () => resolveInside(source.dir, reference));
  };
  data.models?.forEach((spec) => compiled.models.push(toModelEntry(spec)));
  if (data.keys) compiled.keys = data.keys;
  data.chat?.forEach((spec, i) => attempt(() => compiled.chat.push(located(file, ['chat', i], () => compileChatFixture(spec, file, order++)))));
  data.images?.forEach((spec, i) =>
    attempt(() => {
      if ('file' in spec.reply) checkFile(['images', i, 'reply', 'file'], spec.reply.file);
      compiled.images.push(compileEntry(spec, source, ['images', i], order++));
    }),
  );
  data.videos?.forEach((spec, i) =>
    attempt(() => {
      checkFile(['videos', i, 'reply', 'file'], spec.reply?.file);
      checkFile(['videos', i, 'reply', 'thumbnail'], spec.reply?.thumbnail);
      compiled.videos.push(compileEntry(spec, source, ['videos', i], order++));
    }),
  );
  data.transcriptions?.forEach((spec, i) => attempt(() => compiled.transcriptions.push(located(file, ['transcriptions', i], () => compileTranscriptionFixture(spec, file, order++)))));
  data.embeddings?.forEach((spec, i) => attempt(() => compiled.embeddings.push(compileEntry(spec, source, ['embeddings', i], order++))));
  data.moderations?.forEach((spec, i) => attempt(() => compiled.moderations.push(compileEntry(spec, source, ['moderations', i], order++))));
  data.batches?.forEach((spec, i) => compiled.batches.push({ name: spec.name ?? `${file}#batches.${i}`, file, spec }));
  data.scenarios?.forEach((spec, i) => attempt(() => compiled.scenarios.push(compileEntry(spec, source, ['scenarios', i], order++))));
  data.mcp?.forEach((spec, i) => compiled.mcp.push(compileMcpServer(spec, file, (problem) => errors.push(locatedAt(file, ['mcp', i], problem)), source.shipped)));
  errors.push(...toolMatchesOnFixtures(file, data));
  compiled.entries = numbered(data).length;
  compiled.onlyGroups = data.image_generation?.chat_completions_only_groups;
  return compiled;
}

/** Renumbers an entry `shift` places on; an unnamed one is named after its new number, as a full load names it. */
function placeEntry<T extends { name: string; file: string; order: number }>(entry: T, named: string | undefined, shift: number): T {
  return { ...entry, order: entry.order + shift, name: named ?? `${entry.file}#${entry.order + shift}` };
}

/**
 * The file's entries numbered from `offset` (its place among all files). Renumbered in place, so
 * that a file kept for the next reload holds its entries once (10,000 fixtures held twice were 1.4
 * MB); a config already made keeps the entries it was made with.
 */
function placed(compiled: CompiledFile, offset: number): CompiledFile {
  const shift = offset - compiled.offset;
  if (shift === 0) return compiled;
  // Entries that failed to compile leave gaps; each kept entry is found by its own number.
  const specs = numbered(compiled.source.data);
  const place = <T extends { name: string; file: string; order: number }>(entry: T) => placeEntry(entry, specs[entry.order - compiled.offset]?.name, shift);
  return Object.assign(compiled, {
    chat: compiled.chat.map(place),
    images: compiled.images.map(place),
    videos: compiled.videos.map(place),
    embeddings: compiled.embeddings.map(place),
    moderations: compiled.moderations.map(place),
    transcriptions: compiled.transcriptions.map(place),
    scenarios: compiled.scenarios.map(place),
    offset,
  });
}

/**
 * Merges compiled files in load order into one Config, with the checks across files (a model,
 * key or scenario declared twice; a key naming a scenario). `complete` is false when some files
 * did not parse: a key naming a scenario would then be reported for what is only missing for now.
 */
export function mergeFiles(
  compiledFiles: readonly CompiledFile[],
  dirs: { fixturesDirs: readonly string[]; scenariosDirs: readonly string[] },
  files: string[],
  complete = true,
): { config?: Config; errors: LocatedError[] } {
  const errors: LocatedError[] = compiledFiles.flatMap((compiled) => compiled.errors);
  const modelById = new Map<string, ModelEntry>();
  const keys = new Map<string, KeySpec>();
  let keysDeclared = false;
  const chat: ChatFixture[] = [];
  const images: Array<Config['images'][number]> = [];
  const videos: Array<Config['videos'][number]> = [];
  const embeddings: Array<Config['embeddings'][number]> = [];
  const moderations: Array<Config['moderations'][number]> = [];
  const transcriptions: TranscriptionFixture[] = [];
  const batches: BatchFixture[] = [];
  const scenarios = new Map<string, Compiled<ScenarioSpec>>();
  let onlyGroups: string[] | undefined;
  const mcp = new Map<string, McpServerFake>();
  // Scenario files may come after the key that names one: checked once everything is read.
  const keyScenarios: Array<{ file: string; index: number; name: string }> = [];
  let offset = 0;
  let replaceCatalog = false;
  for (const compiledFile of compiledFiles) {
    const here = placed(compiledFile, offset);
    offset += compiledFile.entries;
    const { file } = here.source;
    here.models.forEach((model, i) => {
      if (modelById.has(model.id)) errors.push(new LocatedError(file, ['models', i, 'id'], `model "${model.id}" is declared twice`));
      else modelById.set(model.id, model);
    });
    if (here.source.data.catalog === 'replace') replaceCatalog = true;
    if (here.source.data.keys) keysDeclared = true;
    here.keys.forEach((spec, i) => {
      if (keys.has(spec.key)) return errors.push(new LocatedError(file, ['keys', i, 'key'], 'this key is declared twice'));
      keys.set(spec.key, spec);
      if (spec.scenario !== undefined) keyScenarios.push({ file, index: i, name: spec.scenario });
    });
    chat.push(...here.chat);
    images.push(...here.images);
    videos.push(...here.videos);
    embeddings.push(...here.embeddings);
    moderations.push(...here.moderations);
    transcriptions.push(...here.transcriptions);
    batches.push(...here.batches);
    if (here.onlyGroups) onlyGroups = here.onlyGroups;
    for (const server of here.mcp) {
      const first = mcp.get(server.name);
      if (first) errors.push(new LocatedError(file, ['mcp', here.source.data.mcp!.indexOf(server.spec), 'server'], `the MCP server "${server.name}" is declared twice (first in ${first.file})`));
      else mcp.set(server.name, server);
    }
    for (const scenario of here.scenarios) {
      const index = (here.source.data.scenarios ?? []).indexOf(scenario.spec);
      if (scenarios.has(scenario.spec.name)) errors.push(new LocatedError(file, ['scenarios', index, 'name'], `scenario "${scenario.spec.name}" is declared twice`));
      else scenarios.set(scenario.spec.name, scenario);
    }
  }

  for (const { file, index, name } of complete ? keyScenarios : []) {
    if (!scenarios.has(name)) errors.push(new LocatedError(file, ['keys', index, 'scenario'], `no scenario is named "${name}"; scenarios: ${[...scenarios.keys()].join(', ') || 'none'}`));
  }
  // Declared models come first (the first of a kind is a door's default), then the package's own.
  if (!replaceCatalog) for (const spec of defaultCatalog()) if (!modelById.has(spec.id)) modelById.set(spec.id, toModelEntry(spec));
  for (const short of shortVectors(embeddings, [...modelById.values()])) {
    const index = compiledFiles.find((f) => f.source.file === short.fixture.file)?.source.data.embeddings?.indexOf(short.fixture.spec) ?? 0;
    errors.push(new LocatedError(short.fixture.file, ['embeddings', index, 'vector'], short.message));
  }
  if (errors.length > 0) return { errors };
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
    embeddings: indexFixtures(sortFixtures(embeddings)),
    moderations: indexFixtures(sortFixtures(moderations)),
    transcriptions: sortFixtures(transcriptions),
    batches,
    scenarios,
    chatCompletionsOnlyGroups: onlyGroups ?? ['special-price'],
    mcp,
  };
  return { config, errors };
}

/** Compiles every entry it can and reports every entry it cannot, so that all files' problems come out in one pass. */
export function compileConfig(
  parsed: ParsedFile[],
  dirs: { fixturesDirs: readonly string[]; scenariosDirs: readonly string[] },
  files: string[],
  complete = true,
): { config?: Config; errors: LocatedError[] } {
  return mergeFiles(parsed.map(compileFile), dirs, files, complete);
}
