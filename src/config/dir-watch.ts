// The watcher of the configuration's directories: one `fs.watch` a directory, none a file. A
// directory's watch hears every change of the entries in it (a file written, added, removed,
// renamed), which is all the store needs to know: that it should look (store.ts), not what changed.
// chokidar, which watched each file as well and kept a record of every entry, took about 15-20 ms
// of CPU for the package's own dozen files, which every start's listening line waited for; this
// scan is a `readdir` and a watch a directory.
import { lstatSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';

export interface DirWatchListener {
  /** Something under a watched directory changed. */
  changed(): void;
  /** A root can no longer be watched where it is (removed, moved away, unreadable): watch anew once it can be read. */
  lost(): void;
}

interface Watched {
  readonly watcher: FSWatcher;
  /** The directory watched: a watch follows its inode, so a directory moved away is told apart from the one now at its path. */
  readonly ino: number;
}

export class DirWatch {
  private readonly watched = new Map<string, Watched>();
  private closed = false;

  /**
   * Watches `roots` and every directory under them that `skipped` does not leave out. Links are
   * not followed (a link cycle would otherwise be followed until ELOOP): what a link points at
   * inside a root is watched where it is. A root is followed if it is a link itself.
   */
  constructor(
    private readonly roots: readonly string[],
    private readonly skipped: (path: string) => boolean,
    private readonly listener: DirWatchListener,
  ) {
    for (const root of roots) this.add(root);
  }

  close(): void {
    this.closed = true;
    for (const { watcher } of this.watched.values()) watcher.close();
    this.watched.clear();
  }

  private add(dir: string): void {
    if (this.closed || this.watched.has(dir) || this.skipped(dir)) return;
    const isRoot = this.roots.includes(dir);
    try {
      // An event's entry is most often a file: it is looked at, not watched.
      const ino = inodeOf(dir, isRoot);
      if (ino === undefined) {
        if (isRoot) this.listener.lost();
        return;
      }
      // Watched before it is listed: a folder made between the two is then heard or listed, never
      // neither (`add` of one already watched does nothing).
      const watcher = watch(dir, (_event, name) => this.heard(dir, name));
      watcher.on('error', () => this.failed(dir));
      this.watched.set(dir, { watcher, ino });
      for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) this.add(join(dir, entry.name));
    } catch {
      // Gone or unreadable meanwhile: a folder inside is heard of again from its parent's watch.
      this.drop(dir);
      if (isRoot) this.listener.lost();
    }
  }

  private heard(dir: string, name: string | null): void {
    if (this.closed) return;
    this.listener.changed();
    if (!this.stillThere(dir)) {
      this.failed(dir);
      return;
    }
    if (name === null) return;
    const path = join(dir, name);
    if (!this.watched.has(path)) this.add(path);
    else if (!this.stillThere(path)) this.drop(path);
  }

  /** A directory whose watch failed or that is gone: dropped, and a root is watched anew once it can be. */
  private failed(dir: string): void {
    this.drop(dir);
    this.listener.changed();
    if (this.roots.includes(dir)) this.listener.lost();
  }

  private stillThere(dir: string): boolean {
    try {
      return inodeOf(dir, this.roots.includes(dir)) === this.watched.get(dir)?.ino;
    } catch {
      return false;
    }
  }

  /** Stops watching `dir` and every directory under it. */
  private drop(dir: string): void {
    for (const [path, { watcher }] of this.watched) {
      if (path !== dir && !path.startsWith(dir + sep)) continue;
      watcher.close();
      this.watched.delete(path);
    }
  }
}

/** The inode of directory `path` (a root followed if a link, any other link left alone), or undefined if it is no directory. */
function inodeOf(path: string, follow: boolean): number | undefined {
  const stats = follow ? statSync(path) : lstatSync(path);
  return stats.isDirectory() ? stats.ino : undefined;
}
