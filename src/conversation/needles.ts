// Finding which of many needles occur in a text in one pass (Aho-Corasick), so that thousands of
// `contains` fixtures cost one walk over the prompt instead of one search each.

/** Children of every node in one map keyed by (node, UTF-16 unit): compact for thousands of needles. */
function edge(node: number, unit: number): number {
  return node * 0x10000 + unit;
}

export class NeedleSearch {
  private readonly next = new Map<number, number>();
  /** Per node: the node of the longest proper suffix that is also in the trie. */
  private readonly fail: number[] = [0];
  /** Per node: the needle ending exactly here, or -1. */
  private readonly ends: number[] = [-1];
  /** Per node: the nearest node along the fail chain where a needle ends, or 0 for none. */
  private readonly outputLink: number[] = [0];
  /** Needles spelled the same share a node; the others are listed here by their first. */
  private readonly twins = new Map<number, number[]>();

  /** Empty needles are skipped: they occur everywhere, so they narrow nothing. */
  constructor(needles: readonly string[]) {
    needles.forEach((needle, id) => {
      if (needle === '') return;
      let node = 0;
      for (let i = 0; i < needle.length; i++) {
        const key = edge(node, needle.charCodeAt(i));
        let child = this.next.get(key);
        if (child === undefined) {
          child = this.fail.length;
          this.next.set(key, child);
          this.fail.push(0);
          this.ends.push(-1);
          this.outputLink.push(0);
        }
        node = child;
      }
      const first = this.ends[node]!;
      if (first < 0) this.ends[node] = id;
      else if (this.twins.has(first)) this.twins.get(first)!.push(id);
      else this.twins.set(first, [id]);
    });
    this.link();
  }

  /** Breadth first, so every node's suffix links are known before its children's. */
  private link(): void {
    const children = new Map<number, Array<[number, number]>>();
    for (const [key, child] of this.next) {
      const parent = Math.floor(key / 0x10000);
      const list = children.get(parent) ?? [];
      list.push([key % 0x10000, child]);
      children.set(parent, list);
    }
    const queue: number[] = [0];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const [unit, child] of children.get(node) ?? []) {
        queue.push(child);
        if (node === 0) continue;
        let suffix = this.fail[node]!;
        while (suffix !== 0 && !this.next.has(edge(suffix, unit))) suffix = this.fail[suffix]!;
        const target = this.next.get(edge(suffix, unit)) ?? 0;
        this.fail[child] = target;
        this.outputLink[child] = this.ends[target]! >= 0 ? target : this.outputLink[target]!;
      }
    }
  }

  /** The ids (positions in the constructor's list) of the needles that occur in `text`, each once. */
  found(text: string): Set<number> {
    const found = new Set<number>();
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let step = this.next.get(edge(node, unit));
      while (step === undefined && node !== 0) {
        node = this.fail[node]!;
        step = this.next.get(edge(node, unit));
      }
      node = step ?? 0;
      for (let hit = this.ends[node]! >= 0 ? node : this.outputLink[node]!; hit !== 0; hit = this.outputLink[hit]!) {
        const id = this.ends[hit]!;
        if (found.has(id)) continue;
        found.add(id);
        for (const twin of this.twins.get(id) ?? []) found.add(twin);
      }
    }
    return found;
  }
}
