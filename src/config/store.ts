// The live configuration: loaded once at start (a bad one stops the server), then reloaded on
// every change under the watched directories. A reload that fails keeps the last good config and
// records its problems; the swap of a good one is a single reference assignment.
import { readdirSync } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';
import { displayPath, LoadCache, loadConfig, loadSettledConfig, type LoadOptions } from './load.js';
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
  onReload?: (problems: ConfigProblem[]) => void;
}

/**
 * How long the watched files must have been quiet (no watcher event) before a reload reads them:
 * it coalesces the burst of events of an editor's save into one reload, and a writer that pauses
 * mid-file (a large file written in pieces, rewritten in place) is not caught half-way. Short
 * enough that a save shows within 100 ms: a file caught half-written anyway is seen as changing
 * while read, and loaded whole at the next quiet moment.
 */
const QUIET_MS = 50;
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
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private recovery: NodeJS.Timeout | undefined;
  private closed = false;
  private lastEventMs = 0;
  /** Each file's parse and compiled entries: a reload redoes only the files that changed. */
  private readonly cache = new LoadCache();

  constructor(private readonly options: ConfigStoreOptions) {
    const result = loadSettledConfig(options, this.cache);
    if (!result.config) throw new ConfigLoadError(result.problems);
    this.current = result.config;
    this.files = result.files;
    this.loadedAt = options.now();
  }

  reload(): void {
    let result: ReturnType<typeof loadConfig>;
    try {
      result = loadConfig(this.options, this.cache);
    } catch (error) {
      // A bug in loading must not take the server down: report it like a bad file.
      result = { files: this.files, problems: [{ file: this.options.fixturesDirs[0] ?? '.', line: 1, col: 1, message: String(error) }] };
    }
    // A file is being written: the next quiet moment loads it whole; until then nothing changes.
    if (result.changing) return this.schedule();
    this.reloads++;
    if (result.problems.length > 0) this.failedReloads++;
    this.problems = result.problems;
    if (result.config) {
      this.current = result.config;
      this.files = result.files;
      this.loadedAt = this.options.now();
    }
    this.options.onReload?.(result.problems);
  }

  private schedule(): void {
    // A watcher event heard after close (chokidar may deliver one late) starts nothing.
    if (this.closed) return;
    this.lastEventMs = performance.now();
    this.timer ??= setTimeout(() => this.reloadWhenQuiet(), QUIET_MS);
  }

  private reloadWhenQuiet(): void {
    // Events that arrived while the loop was busy are heard first (poll phase, then check phase).
    setImmediate(() => {
      const quietFor = performance.now() - this.lastEventMs;
      this.timer = quietFor >= QUIET_MS || this.closed ? undefined : setTimeout(() => this.reloadWhenQuiet(), QUIET_MS - quietFor);
      if (this.timer === undefined && !this.closed) this.reload();
    });
  }

  /** A file refused as it was served (a link swapped in after load): a health error until the next reload. */
  noteRefusedFile(message: string): void {
    if (this.problems.some((problem) => problem.message === message)) return;
    this.problems = [...this.problems, { file: displayPath(this.options.fixturesDirs[0] ?? '.'), line: 1, col: 1, message }];
  }

  async watch(): Promise<void> {
    const paths = [...this.options.fixturesDirs, ...this.options.scenariosDirs];
    // Links are watched as links: a link cycle would otherwise be followed until ELOOP, and the
    // files a link may point at (inside the directory) are watched where they are.
    const watcher = watch(paths, { ignoreInitial: true, followSymlinks: false, ignored: (path) => /(^|[/\\])(\.|node_modules)/.test(path) });
    this.watcher = watcher;
    const schedule = () => this.schedule();
    // chokidar drops a second `change` of a file within 50 ms; its `raw` events are not
    // throttled, so listening to both never misses a quick second save.
    watcher.on('all', (event, path) => {
      schedule();
      if (event === 'unlinkDir' && paths.includes(path)) this.recover();
    });
    watcher.on('raw', schedule);
    // A watcher error (an unreadable directory) unheard would take the process down; the reload
    // reports what is wrong, and the watcher, which stops watching what failed, is renewed.
    watcher.on('error', () => {
      schedule();
      this.recover();
    });
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  /**
   * After a watched directory failed (unreadable, gone), chokidar no longer watches it: check
   * again until every directory can be read, then watch anew and reload, which clears the error.
   */
  private recover(): void {
    if (this.recovery || this.closed) return;
    this.recovery = setInterval(() => {
      const dirs = [...this.options.fixturesDirs, ...this.options.scenariosDirs];
      if (!dirs.every(readableDir)) return;
      clearInterval(this.recovery);
      this.recovery = undefined;
      const old = this.watcher;
      void old?.close().then(() => (this.closed ? undefined : this.watch().then(() => this.reload())));
    }, RECOVERY_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.recovery);
    await this.watcher?.close();
  }
}

function readableDir(dir: string): boolean {
  try {
    readdirSync(dir);
    return true;
  } catch {
    return false;
  }
}
