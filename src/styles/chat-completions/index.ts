// The chat-completions style (`POST /v1/chat/completions`).
import { openaiEnvelope, openaiStreamError } from '../openai-envelope.js';
import type { ChatStyle } from '../style.js';
import { decodeChatCompletions } from './decode.js';
import { chatCompletionEvents, encodeChatCompletion } from './encode.js';
import { readChatCompletion } from './read.js';

export const chatCompletions: ChatStyle = {
  name: 'chat-completions',
  envelope: openaiEnvelope,
  decode: (input) => decodeChatCompletions(input),
  encode: encodeChatCompletion,
  events: chatCompletionEvents,
  streamError: openaiStreamError,
  read: readChatCompletion,
};
