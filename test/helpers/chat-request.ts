// A neutral chat request as a style's decoder would hand it on: one user turn, no tools, text out.
import type { ChatRequest } from '../../src/conversation/types.js';

export function chatRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    style: 'chat-completions',
    model: 'gpt-4o-mini',
    system: '',
    turns: [],
    tools: [],
    toolChoice: { mode: 'auto' },
    responseFormat: { type: 'text' },
    choices: 1,
    stopSequences: [],
    stream: false,
    headers: {},
    body: {},
    ...overrides,
  };
}
