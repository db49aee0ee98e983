// The streams being written, so a shutdown can wait for them and then end the ones still open in
// their style's own error event instead of resetting them.
export class OpenStreams {
  private readonly interrupts = new Set<() => void>();
  private readonly idle: Array<() => void> = [];

  /** Registers a stream; `interrupt` makes it end early with its error event. Returns its release. */
  open(interrupt: () => void): () => void {
    this.interrupts.add(interrupt);
    return () => {
      this.interrupts.delete(interrupt);
      if (this.interrupts.size === 0) for (const resolve of this.idle.splice(0)) resolve();
    };
  }

  get size(): number {
    return this.interrupts.size;
  }

  /** Resolves once no stream is open. */
  drained(): Promise<void> {
    return this.interrupts.size === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }

  interruptAll(): void {
    for (const interrupt of this.interrupts) interrupt();
  }
}
