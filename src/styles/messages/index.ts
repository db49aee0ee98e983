// The messages style (`POST /v1/messages`) and its token counting (`POST /v1/messages/count_tokens`).
import type { ChatStyle } from '../style.js';
import { decodeCountTokens, decodeMessages } from './decode.js';
import { encodeMessage, messageAnswer } from './encode.js';
import { messagesEnvelope } from './envelope.js';
import { messageEvents, messageParts, messagesStreamError } from './events.js';
import { readMessage } from './read.js';

export const messages: ChatStyle = {
  name: 'messages',
  envelope: messagesEnvelope,
  decode: (input) => decodeMessages(input),
  encode: encodeMessage,
  answer: messageAnswer,
  events: messageEvents,
  parts: messageParts,
  streamError: messagesStreamError,
  read: readMessage,
};

export const messagesTokenCounting = {
  decode: decodeCountTokens,
  encode: (inputTokens: number) => ({ input_tokens: inputTokens }),
};
