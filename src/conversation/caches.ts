// The process's caches, counted: pictures, speech and vectors made lately, the token memos, the
// journal's shared parts, the compiled checks of structured-output schemas, large bodies' long
// members, fixtures' answers as templates (styles/answer-template.ts), short bodies' schema checks
// (styles/parsed-bodies.ts). Each keeps an estimate of its bytes as entries come and go (never a
// walk of what it holds), within bounds of its own. A memory budget (state/memory.ts) counts them
// in the room its sessions leave: each time its sessions keep more, the caches past that room evict
// their own oldest entries, the largest cache first, so what the sessions keep never goes for a
// cache. Several mocks in one process share the caches, and each holds them to its room as it
// works: a mock that is idle, or gone, no longer holds them back.

export const CACHE_NAMES = ['pictures', 'speech', 'vectors', 'tokens', 'journal', 'hints', 'schemas', 'members', 'answers', 'bodies'] as const;
export type CacheName = (typeof CACHE_NAMES)[number];

export interface CountedCache {
  readonly name: CacheName;
  /** About what it holds now, in bytes. */
  readonly bytes: number;
  /** Evicts its oldest entries until it holds at most `bytes`. */
  shrinkTo(bytes: number): void;
}

/** A map entry's slot and a key string's header, besides the key's characters. */
export const ENTRY_BYTES = 64;

/** What a text costs held: one byte a character for ASCII, else two (V8's strings are Latin-1 or UTF-16). */
export function textBytes(text: string): number {
  return Buffer.byteLength(text) === text.length ? text.length : 2 * text.length;
}

class ProcessCaches {
  private readonly all: CountedCache[] = [];
  /** What every cache holds together, kept as they report their changes. */
  private held = 0;

  get bytes(): number {
    return this.held;
  }

  add(cache: CountedCache): void {
    this.all.push(cache);
  }

  /** A cache's entries came (`delta` > 0) or went. */
  changed(delta: number): void {
    this.held += delta;
  }

  /**
   * Evicts the oldest entries of the largest cache until all of them hold at most `room` (none at
   * all below 0). The largest is brought down no further than the next one at a time, so one cache
   * is not emptied, its newest entries too, while the others keep their old ones.
   */
  fitIn(room: number): void {
    const over = () => this.bytes - Math.max(0, room);
    while (over() > 0) {
      const [largest, next] = [...this.all].sort((a, b) => b.bytes - a.bytes);
      const before = largest!.bytes;
      largest!.shrinkTo(Math.max(0, before - over(), Math.min(next?.bytes ?? 0, before - 1)));
      if (largest!.bytes >= before) return;
    }
  }

  /** Bytes by cache. */
  use(): Record<CacheName, number> {
    const use = Object.fromEntries(CACHE_NAMES.map((name) => [name, 0])) as Record<CacheName, number>;
    for (const cache of this.all) use[cache.name] += cache.bytes;
    return use;
  }
}

export const caches = new ProcessCaches();
