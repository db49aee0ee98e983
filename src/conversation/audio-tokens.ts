// OpenAI's audio counted as tokens, one rate for every door that speaks or hears (speech,
// transcriptions, chat audio output, Realtime), so their usage agrees for the same seconds.
import type { Reply } from './types.js';

/** The vendor bills gpt-4o audio by the second at about this rate. */
export const AUDIO_TOKENS_PER_SECOND = 10;

export function audioTokens(seconds: number): number {
  return Math.ceil(seconds * AUDIO_TOKENS_PER_SECOND);
}

/** The audio tokens a chat reply said aloud: its choices' speech, counted apart from their text. */
export function spokenTokens(reply: Reply): number {
  return reply.choices.reduce((sum, choice) => sum + (choice.audio ? audioTokens(choice.audio.seconds) : 0), 0);
}
