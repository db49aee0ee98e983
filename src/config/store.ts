// The live configuration: loaded once at start (a bad one stops the server), then reloaded as
// changes under the watched directories settle (settle.ts). A reload that fails keeps the last good
// config and records its problems; the swap of a good one is a single reference assignment.
import { readdirSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { DirWatch } from './dir-watch.js';
import { displayPath, LoadCache, loadConfig, loadSettledConfig, type LoadOptions } from './load.js';
import { Settling } from './settle.js';
import type { Config, ConfigProblem } from './types.js';

export class ConfigLoadError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(problem: ConfigProblem): string {
  return `${problem.file}:${problem.line}:${problem.col}: ${problem.message}`;
}

export interface ConfigStoreOptions extends LoadOptions {
  now: () => number;
  /** Where each file's parse is kept; given, the caller reads the parsed files from it too. */
  cache?: LoadCache;
  onReload?: (problems: ConfigProblem[]) => void;
}

/**
 * How soon a watcher event makes the store look at the files: the events of one save (an editor
 * writes, renames, touches) are one look. Later events never postpone a look already due.
 */
const LOOK_MS = 50;
/** How often a failed directory is looked at again. */
const RECOVERY_MS = 250;

export class ConfigStore {
  current: Config;
  reloads = 0;
  /** Reloads that found a problem (the last good configuration kept serving). */
  failedReloads = 0;
  loadedAt: number;
  files: string[];
  problems: ConfigProblem[] = [];
  private watcher: DirWatch | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer's look is due, on the same clock as the settling. */
  private dueAt = Infinity;
  private recovery: NodeJS.Timeout | undefined;
  private closed = false;
  /** Each file's parse and compiled entries: a reload redoes only the files that changed. */
  private readonly cache: LoadCache;
  /** Which changed files have kept their stamp long enough to be read (SPEC 11). */
  private readonly settling = new Settling(() => performance.now());
  /** Told of each configuration swapped in (open MCP sessions tell their clients of changed tools). */
  readonly swapped = new Set<(config: Config) => void>();

  constructor(private readonly options: ConfigStoreOptions) {
    this.cache = options.cache ?? new LoadCache();
    const result = loadSettledConfig(options, this.cache);
    if (!result.config) throw new ConfigLoadError(result.problems);
    this.current = result.config;
    this.files = result.files;
    this.loadedAt = options.now();
  }

  /**
   * Looks at the files now: takes every change that has settled, keeps the last version of any
   * still settling, and counts a reload when a change was taken or none is pending.
   */
  reload(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAt = Infinity;
    let result: ReturnType<typeof loadConfig>;
    try {
      result = loadConfig(this.options, this.cache, this.settling);
    } catch (error) {
      // A bug in loading must not take the server down: report it like a bad file.
      result = { files: this.files, problems: [{ file: this.options.fixturesDirs[0] ?? '.', line: 1, col: 1, message: String(error) }] };
    }
    const next = this.settling.nextLookIn();
    if (next !== undefined) this.lookIn(next);
    // Only files still settling changed: nothing new to count or show yet.
    if (result.waiting && !result.taken) return;
    this.reloads++;
    if (result.problems.length > 0) this.failedReloads++;
    this.problems = result.problems;
    if (result.config) {
      this.current = result.config;
      this.files = result.files;
      this.loadedAt = this.options.now();
      for (const listener of this.swapped) listener(result.config);
    }
    this.options.onReload?.(result.problems);
  }

  /** The mock wrote (or removed) `file` itself, whole: loaded at once, without waiting for it to settle. */
  loadOwnWrite(file: string): void {
    this.settling.trust(resolve(file));
    this.reload();
  }

  /** A look in `ms` at the latest: an earlier one already due stays as it is. */
  private lookIn(ms: number): void {
    // A watcher event heard after close (one already queued) starts nothing.
    if (this.closed) return;
    const due = performance.now() + ms;
    if (this.timer && this.dueAt <= due) return;
    clearTimeout(this.timer);
    this.dueAt = due;
    this.timer = setTimeout(() => this.reload(), ms);
  }

  /** A file refused as it was served (a link swapped in after load): a health error until the next reload. */
  noteRefusedFile(message: string): void {
    if (this.problems.some((problem) => problem.message === message)) return;
    this.problems = [...this.problems, { file: displayPath(this.options.fixturesDirs[0] ?? '.'), line: 1, col: 1, message }];
  }

  /** Watches the directories: a change after this returns is heard. */
  watch(): void {
    const paths = [...this.options.fixturesDirs, ...this.options.scenariosDirs];
    this.watcher = new DirWatch(paths, skippedInside(paths), { changed: () => this.lookIn(LOOK_MS), lost: () => this.recover() });
  }

  /**
   * After a watched directory failed (unreadable, gone), it is no longer watched: check again until
   * every directory can be read, then watch anew and reload, which clears the error.
   */
  private recover(): void {
    if (this.recovery || this.closed) return;
    this.recovery = setInterval(() => {
      const dirs = [...this.options.fixturesDirs, ...this.options.scenariosDirs];
      if (!dirs.every(readableDir)) return;
      clearInterval(this.recovery);
      this.recovery = undefined;
      this.watcher?.close();
      if (this.closed) return;
      this.watch();
      this.reload();
    }, RECOVERY_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.recovery);
    this.watcher?.close();
  }
}

/**
 * What the watcher leaves alone: dot-entries and node_modules inside a watched directory, which the
 * loader skips too (the recorder's temporary files among them). The directory itself may be
 * anywhere, under a dot-directory or node_modules included.
 */
function skippedInside(dirs: readonly string[]): (path: string) => boolean {
  // The deepest directory holding a path decides: one directory may lie inside another.
  const roots = dirs.map((dir) => resolve(dir)).sort((a, b) => b.length - a.length);
  return (path) => {
    const full = resolve(path);
    const root = roots.find((dir) => full === dir || full.startsWith(dir + sep));
    return root !== undefined && relative(root, full).split(sep).some((part) => part.startsWith('.') || part === 'node_modules');
  };
}

function readableDir(dir: string): boolean {
  try {
    readdirSync(dir);
    return true;
  } catch {
    return false;
  }
}
