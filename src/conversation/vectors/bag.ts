// A text's features counted: each distinct feature once, with the weight of all its occurrences.
// A vector adds every feature at several positions; in a long text most words and trigrams come
// back again and again, so spreading each distinct one once saves most of that work.

/** Grows as texts need; kept from text to text, so a batch allocates it once. */
export class FeatureBag {
  /** The distinct features in the order first seen: hash, summed weight, whether light. */
  hashes = new Uint32Array(1024);
  weights = new Float64Array(1024);
  light = new Uint8Array(1024);
  count = 0;
  // Open addressing: each slot names an entry (index + 1) when its stamp is the current text's.
  private slots = new Int32Array(2048);
  private stamps = new Uint32Array(2048);
  private stamp = 0;
  private shift = 32 - 11;

  /** Empties the bag for a text of at most `features` feature occurrences. */
  clear(features: number): void {
    if (features > this.hashes.length) {
      const size = 2 ** Math.ceil(Math.log2(features));
      this.hashes = new Uint32Array(size);
      this.weights = new Float64Array(size);
      this.light = new Uint8Array(size);
      this.slots = new Int32Array(size * 2);
      this.stamps = new Uint32Array(size * 2);
      this.shift = 32 - Math.log2(size * 2);
      this.stamp = 0;
    }
    this.count = 0;
    this.stamp = (this.stamp + 1) >>> 0;
    // After 2^32 texts the stamps would come round: start the slots afresh.
    if (this.stamp === 0) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  add(hash: number, weight: number, light: boolean): void {
    const mask = this.stamps.length - 1;
    const flag = light ? 1 : 0;
    // Fibonacci hashing: the top bits of a multiply spread near hashes apart.
    for (let slot = Math.imul(hash, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      if (this.stamps[slot] !== this.stamp) {
        const entry = this.count++;
        this.stamps[slot] = this.stamp;
        this.slots[slot] = entry;
        this.hashes[entry] = hash;
        this.weights[entry] = weight;
        this.light[entry] = flag;
        return;
      }
      const entry = this.slots[slot]!;
      if (this.hashes[entry] === hash && this.light[entry] === flag) {
        this.weights[entry]! += weight;
        return;
      }
    }
  }
}
