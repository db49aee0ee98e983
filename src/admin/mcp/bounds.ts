// What one call of the MCP endpoint may ask for, so that no call holds the event loop (SPEC 11
// "Time"): the body (an `add_fixture` document is a fixtures file, bounded as one) and the
// messages of a JSON-RPC batch, which run one after the other without a pause between them.
import { CONFIG_LIMITS } from '../../config/bounds.js';

export const MCP_BOUNDS = {
  /** Bytes of an `add_fixture` document, as of a fixtures file. */
  documentBytes: CONFIG_LIMITS.fileBytes,
  /** Bytes of a request body: a document at its bound, escaped as a JSON string, fits. */
  bodyBytes: 2 * CONFIG_LIMITS.fileBytes,
  /** Messages in one JSON-RPC batch (the SDK's own bound is 100). */
  batchMessages: 10,
} as const;
