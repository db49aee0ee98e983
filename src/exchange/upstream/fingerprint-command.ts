// `model-gateway-mock fingerprint < request.json`: the fingerprint a request body has, so a
// hand-written fixture can pin one turn (`match.fingerprint`) as a recording does.
import { fingerprint } from '../../conversation/fingerprint.js';
import type { StyleName } from '../../conversation/types.js';
import { recognisedStyle, STYLES } from '../../styles/registry.js';

export function requestFingerprint(text: string, options: { style?: StyleName; model?: string }): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new Error(`The request on standard input is not JSON: ${(error as Error).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('The request on standard input must be a JSON object.');
  const entry = options.style ? STYLES[options.style] : recognisedStyle(body as Record<string, unknown>);
  const model = options.model ?? String((body as { model?: unknown }).model ?? '');
  // A style whose path names the model (generate-content) reads it from there.
  if (entry.modelParams && !model) throw new Error(`A ${entry.style.name} body names no model: give --model ID.`);
  const params = entry.modelParams?.(model) ?? {};
  const request = entry.style.decode({ body, query: {}, headers: {}, params }, { storedTurns: () => undefined });
  return fingerprint(request);
}
