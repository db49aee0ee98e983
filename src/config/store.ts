// The live configuration: loaded once at start (a bad one stops the server), then reloaded on
// every change under the watched directories. A reload that fails keeps the last good config and
// records its problems; the swap of a good one is a single reference assignment.
import { watch, type FSWatcher } from 'chokidar';
import { loadConfig, type LoadOptions } from './load.js';
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

/** Coalesces the burst of events an editor's save produces into one reload. */
const SETTLE_MS = 15;

export class ConfigStore {
  current: Config;
  reloads = 0;
  loadedAt: number;
  files: string[];
  problems: ConfigProblem[] = [];
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ConfigStoreOptions) {
    const result = loadConfig(options);
    if (!result.config) throw new ConfigLoadError(result.problems);
    this.current = result.config;
    this.files = result.files;
    this.loadedAt = options.now();
  }

  reload(): void {
    let result: ReturnType<typeof loadConfig>;
    try {
      result = loadConfig(this.options);
    } catch (error) {
      // A bug in loading must not take the server down: report it like a bad file.
      result = { files: this.files, problems: [{ file: this.options.fixturesDirs[0] ?? '.', line: 1, col: 1, message: String(error) }] };
    }
    this.reloads++;
    this.problems = result.problems;
    if (result.config) {
      this.current = result.config;
      this.files = result.files;
      this.loadedAt = this.options.now();
    }
    this.options.onReload?.(result.problems);
  }

  async watch(): Promise<void> {
    const paths = [...this.options.fixturesDirs, ...this.options.scenariosDirs];
    // Links are watched as links: a link cycle would otherwise be followed until ELOOP, and the
    // files a link may point at (inside the directory) are watched where they are.
    const watcher = watch(paths, { ignoreInitial: true, followSymlinks: false, ignored: (path) => /(^|[/\\])(\.|node_modules)/.test(path) });
    this.watcher = watcher;
    const schedule = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.reload(), SETTLE_MS);
    };
    // chokidar drops a second `change` of a file within 50 ms; its `raw` events are not
    // throttled, so listening to both never misses a quick second save.
    watcher.on('all', schedule);
    watcher.on('raw', schedule);
    // A watcher error (an unreadable entry) unheard would take the process down; the reload it
    // schedules reports what is wrong with the files instead.
    watcher.on('error', schedule);
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.watcher?.close();
  }
}
