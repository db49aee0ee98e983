// A library loaded after the server listens, not before its first answer (the
// OpenTelemetry SDK): what is handed to it before it has loaded waits in a queue, and is passed on
// in order once it has.
export class LoadedLater<T, S> {
  private made: T | undefined;
  private loading: Promise<T> | undefined;
  private readonly waiting: S[] = [];

  constructor(
    private readonly make: () => Promise<T>,
    private readonly take: (made: T, item: S) => void,
  ) {}

  /** Starts loading (once); resolves to what was made. */
  load(): Promise<T> {
    this.loading ??= this.make().then((made) => {
      this.made = made;
      for (const item of this.waiting.splice(0)) this.take(made, item);
      return made;
    });
    return this.loading;
  }

  add(item: S): void {
    if (this.made) this.take(this.made, item);
    else this.waiting.push(item);
  }

  /** Whether loading was ever started. */
  get started(): boolean {
    return this.loading !== undefined;
  }
}
