// What an answer used and what it cost: the usage a journal entry shows (as the answer counted it
// for the client) and its price from the catalog's `pricing`, computed once when the entry is made.
import type { Usage } from './types.js';

/** USD, as the vendors' price lists state them (SPEC 17). */
export interface Pricing {
  /** Per million input tokens; cached ones at `cached_input` when given. */
  input?: number;
  cached_input?: number;
  /** Per million output tokens, reasoning included. */
  output?: number;
  /** Per million output tokens of speech (chat audio output); at `output` when not given. */
  audio_output?: number;
  /** Per image, by size (`1024x1024`). */
  image?: Record<string, number>;
  /** Per second of video. */
  second?: number;
  /** Per minute of transcribed audio. */
  minute?: number;
  /** Per million characters of speech. */
  million_characters?: number;
}

/** A journal entry's `usage`: output counts reasoning, as the OpenAI and Anthropic styles report it. */
export interface EntryUsage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  /** The part of output_tokens that is speech, when the answer was said aloud. */
  audio_output_tokens?: number;
}

/** What an answer used, as the operation knew it: tokens, and what media are priced by. */
export interface Metered {
  tokens?: EntryUsage;
  images?: { count: number; size: string };
  seconds?: number;
  minutes?: number;
  characters?: number;
}

/** `spoken`: the audio tokens of the reply's speech, counted in the output as the vendor does. */
export function entryUsage(usage: Usage, spoken = 0): EntryUsage {
  return {
    input_tokens: usage.inputTokens,
    cached_input_tokens: usage.cachedTokens,
    output_tokens: usage.outputTokens + usage.reasoningTokens + spoken,
    reasoning_tokens: usage.reasoningTokens,
    ...(spoken > 0 && { audio_output_tokens: spoken }),
  };
}

const PER_MILLION = 1_000_000;

/** Sums of fractions of a cent would print as 0.30000000000000004 in the journal. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e10) / 1e10;
}

/** Dollars as messages write them: six significant digits, enough for fractions of a cent. */
export function formatUsd(usd: number): string {
  return `$${Number(usd.toPrecision(6))}`;
}

function tokenCost(pricing: Pricing, tokens: EntryUsage): number | undefined {
  if (pricing.input === undefined && pricing.output === undefined && pricing.audio_output === undefined) return undefined;
  const cached = Math.min(tokens.cached_input_tokens, tokens.input_tokens);
  const input = (tokens.input_tokens - cached) * (pricing.input ?? 0) + cached * (pricing.cached_input ?? pricing.input ?? 0);
  const spoken = tokens.audio_output_tokens ?? 0;
  const output = (tokens.output_tokens - spoken) * (pricing.output ?? 0) + spoken * (pricing.audio_output ?? pricing.output ?? 0);
  return (input + output) / PER_MILLION;
}

/** The parts an answer is priced by that the pricing names; null when it names none of them. */
export function costUsd(pricing: Pricing | undefined, metered: Metered | null): number | null {
  if (!pricing || !metered) return null;
  const perImage = metered.images && pricing.image?.[metered.images.size];
  // A picture endpoint is sold per picture; its token counts are shown, not charged again.
  if (perImage !== undefined && metered.images) return roundUsd(metered.images.count * perImage);
  const parts: Array<number | undefined> = [
    metered.tokens && tokenCost(pricing, metered.tokens),
    metered.seconds !== undefined && pricing.second !== undefined ? metered.seconds * pricing.second : undefined,
    metered.minutes !== undefined && pricing.minute !== undefined ? metered.minutes * pricing.minute : undefined,
    metered.characters !== undefined && pricing.million_characters !== undefined ? (metered.characters * pricing.million_characters) / PER_MILLION : undefined,
  ];
  const priced = parts.filter((part): part is number => part !== undefined);
  return priced.length === 0 ? null : roundUsd(priced.reduce((sum, part) => sum + part, 0));
}
