// The chat-completions style (`POST /v1/chat/completions`).
import { openaiEnvelope, openaiStreamError } from '../openai-envelope.js';
import type { ChatStyle } from '../style.js';
import { decodeChatCompletions } from './decode.js';
import { eventsOf } from '../piece-events.js';
import { chatCompletionAnswer, chatCompletionParts, encodeChatCompletion } from './encode.js';
import { readChatCompletion } from './read.js';

export const chatCompletions: ChatStyle = {
  name: 'chat-completions',
  envelope: openaiEnvelope,
  decode: (input) => decodeChatCompletions(input),
  encode: encodeChatCompletion,
  answer: chatCompletionAnswer,
  events: eventsOf(chatCompletionParts),
  parts: chatCompletionParts,
  streamError: openaiStreamError,
  read: readChatCompletion,
};
