// `model-gateway-mock fingerprint < request.json`: the fingerprint a request body has, so a
// hand-written fixture can pin one turn (`match.fingerprint`) as a recording does.
import { fingerprint } from '../../conversation/fingerprint.js';
import type { StyleName } from '../../conversation/types.js';
import { chatCompletions } from '../../styles/chat-completions/index.js';
import { generateContent } from '../../styles/generate-content/index.js';
import { messages } from '../../styles/messages/index.js';
import { responses } from '../../styles/responses/index.js';
import type { ChatStyle } from '../../styles/style.js';

const STYLES: Record<StyleName, ChatStyle> = { 'chat-completions': chatCompletions, responses, messages, 'generate-content': generateContent };

/** The style a body is written in, by the fields only it has. */
function guessStyle(body: Record<string, unknown>): StyleName {
  if ('contents' in body) return 'generate-content';
  if ('input' in body) return 'responses';
  if ('max_tokens' in body && 'messages' in body && !('max_completion_tokens' in body)) {
    const system = typeof body.system === 'string' || Array.isArray(body.system);
    const anthropicBlocks = JSON.stringify(body.messages).includes('"type":"tool_use"') || JSON.stringify(body.messages).includes('"type":"tool_result"');
    if (system || anthropicBlocks) return 'messages';
  }
  return 'chat-completions';
}

export function requestFingerprint(text: string, options: { style?: StyleName; model?: string }): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new Error(`The request on standard input is not JSON: ${(error as Error).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('The request on standard input must be a JSON object.');
  const name = options.style ?? guessStyle(body as Record<string, unknown>);
  const model = options.model ?? String((body as { model?: unknown }).model ?? '');
  if (name === 'generate-content' && !model) throw new Error('A generate-content body names no model: give --model ID.');
  const params: Record<string, string> = name === 'generate-content' ? { model, action: 'generateContent', target: `${model}:generateContent` } : {};
  const request = STYLES[name].decode({ body, query: {}, headers: {}, params }, { storedTurns: () => undefined });
  return fingerprint(request);
}
