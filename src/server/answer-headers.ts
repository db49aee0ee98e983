// A plain hit's answer headers (server/plain-hit.ts), kept as the journal shows them until they
// are written: with the answer, in one `writeHead` of them all, so that Node's response keeps no
// header map of its own and the journal reads this same object rather than a copy of Node's. When
// the writer takes the response in hand (a stream) they are handed to Node's response, which keeps
// them from then on, as it keeps a name that is not lower case (written as it was given).
import { validateHeaderName, validateHeaderValue, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';

export class AnswerHeaders {
  private kept: Record<string, string | number> | undefined = {};

  constructor(private readonly res: ServerResponse) {}

  /** As Node's `getHeaders()` gives them: lower-case names, in the order first set. */
  get headers(): OutgoingHttpHeaders {
    return this.kept ?? this.res.getHeaders();
  }

  /** Checked as Node's `setHeader` checks it, so a bad name or value throws where it is set. */
  set(name: string, value: string | number): void {
    const kept = this.kept;
    if (kept === undefined || name !== name.toLowerCase()) {
      this.handOver();
      this.res.setHeader(name, value);
      return;
    }
    validateHeaderName(name);
    if (typeof value === 'string') validateHeaderValue(name, value);
    kept[name] = value;
  }

  remove(name: string): void {
    this.handOver();
    this.res.removeHeader(name);
  }

  /** Node's response keeps the headers from now on. */
  handOver(): void {
    const kept = this.kept;
    if (kept === undefined) return;
    this.kept = undefined;
    for (const name in kept) this.res.setHeader(name, kept[name]!);
  }

  /** The status line and the headers kept, given to Node in one call (nothing when Node's response keeps them). */
  writeHead(status: number): void {
    if (this.kept !== undefined) this.res.writeHead(status, this.kept);
  }
}
