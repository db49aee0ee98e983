// The upstream a request may be forwarded to (`--upstream`), as plain data: an exchange carries
// it when the request may spend it, and a batch keeps its creator's for the batch's lines.

export interface Upstream {
  /** The base URL requests are forwarded to, without a trailing slash. */
  url: string;
  /** Replaces the client's key in the header it used (UPSTREAM_API_KEY), when set. */
  key?: string;
  /** Where forwarded exchanges are written as fixtures. */
  record?: string;
  /** Origins besides loopback whose pages may spend the upstream (--admin-origin). */
  origins: readonly string[];
  /** How long a request the mock sends on its own (a batch line) may wait for the upstream's whole answer (--upstream-timeout-ms). */
  timeoutMs: number;
}

/** The upstream's own deadline when none is given: the SDKs' own is longer, a batch line's need not be. */
export const UPSTREAM_TIMEOUT_MS = 60_000;
