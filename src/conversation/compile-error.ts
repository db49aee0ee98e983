// A compile problem at a path inside what is being compiled (a fixture, its match block), so the
// loader can report it at the key's file:line:col.
export class CompileError extends Error {
  constructor(
    readonly path: Array<string | number>,
    message: string,
  ) {
    super(message);
  }
}
