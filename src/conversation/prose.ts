// Generated assistant text for requests no fixture answers: English-looking, seeded, and held
// within the request's output-token budget the way a real model is.
import { fakerLater } from './faker.js';
import type { Random } from './random.js';
import { chunkText } from './token-chunks.js';
import { countTokens } from './tokens.js';

/** Sentence templates for faker.helpers.fake; "the" before fills avoids a/an mistakes. */
interface Voice {
  openers: readonly string[];
  sentences: readonly string[];
  maxParagraphs: number;
}

const ANSWER: Voice = {
  openers: ['Sure!', 'Great question.', 'Happy to help.', "Here's a quick overview.", 'Good idea.', 'Certainly.'],
  sentences: [
    '{{hacker.phrase}}',
    'The key is to {{company.buzzPhrase}}.',
    'In practice, you can {{hacker.verb}} the {{hacker.adjective}} {{hacker.noun}} and let it handle the rest.',
    'Most teams start by {{hacker.ingverb}} the {{hacker.noun}}, then {{company.buzzVerb}} the {{company.buzzNoun}}.',
    'This {{company.buzzAdjective}} approach usually works well.',
    '"{{company.catchPhrase}}" is a good way to sum it up.',
    'That way you can {{company.buzzPhrase}} without extra effort.',
    'Keep in mind that the {{hacker.noun}} needs to be {{hacker.adjective}} for this to work.',
    'It is worth trying this on the {{hacker.adjective}} {{hacker.noun}} before anything else.',
  ],
  maxParagraphs: 3,
};

const REASONING: Voice = {
  openers: [
    'The user is asking about the {{hacker.adjective}} {{hacker.noun}}.',
    'The user wants to {{company.buzzPhrase}}.',
    'The user is asking how to {{hacker.verb}} the {{hacker.noun}}.',
  ],
  sentences: [
    'I should explain how to {{hacker.verb}} the {{hacker.noun}} first.',
    'Maybe they also need to {{company.buzzPhrase}}, so I will mention that.',
    'Let me think about whether {{hacker.ingverb}} the {{hacker.noun}} matters here.',
    'I need to keep the answer short and practical.',
    'It would help to give the {{company.buzzAdjective}} {{company.buzzNoun}} as an example.',
    'I should check that the {{hacker.abbreviation}} settings are right before suggesting anything.',
    'Okay, I will outline the steps and then summarise.',
  ],
  maxParagraphs: 1,
};

// The length a reply aims for before the budget is applied.
const MIN_TARGET_TOKENS = 15;
const MAX_TARGET_TOKENS = 120;
// Below this a reply reads better as one paragraph.
const MULTI_PARAGRAPH_TOKENS = 40;

// One instance, reseeded from `random` on every call; safe because generation is synchronous.
const faker = fakerLater();

/** 1-3 short paragraphs of assistant prose, at most maxTokens tokens (empty only when maxTokens < 1). */
export function generateProse(random: Random, maxTokens: number): string {
  return compose(random, maxTokens, ANSWER);
}

/** A short first-person "thinking" paragraph, at most maxTokens tokens. */
export function generateReasoning(random: Random, maxTokens: number): string {
  return compose(random, maxTokens, REASONING);
}

function compose(random: Random, maxTokens: number, voice: Voice): string {
  if (maxTokens < 1) return '';
  faker().seed(random.int(0, 0xffffffff));
  const target = Math.min(maxTokens, random.int(MIN_TARGET_TOKENS, MAX_TARGET_TOKENS));
  const sentences = [fill(random.pick(voice.openers))];
  // Summing per-sentence counts is close enough to aim; the exact count is enforced in fitTokens.
  let tokens = countTokens(sentences[0] ?? '');
  while (tokens < target) {
    const sentence = fill(random.pick(voice.sentences));
    sentences.push(sentence);
    tokens += countTokens(sentence) + 1;
  }
  const paragraphs = target < MULTI_PARAGRAPH_TOKENS ? 1 : random.int(1, Math.min(voice.maxParagraphs, sentences.length));
  return fitTokens(toParagraphs(sentences, paragraphs), maxTokens);
}

function fill(template: string): string {
  // hacker.phrase shouts; an assistant mostly does not.
  return faker().helpers.fake(template).replace(/!$/, '.');
}

/** Spreads sentences evenly over `count` paragraphs. */
function toParagraphs(sentences: readonly string[], count: number): string {
  const paragraphs: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const from = Math.floor((i * sentences.length) / count);
    const to = Math.floor(((i + 1) * sentences.length) / count);
    paragraphs.push(sentences.slice(from, to).join(' '));
  }
  return paragraphs.join('\n\n');
}

/**
 * Cuts text to at most maxTokens tokens, at the last word boundary that fits (the way a reply
 * stopped by max_tokens ends mid-sentence), or between tokens when not even one word fits.
 */
function fitTokens(text: string, maxTokens: number): string {
  if (countTokens(text) <= maxTokens) return text;
  const words = chunkText(text, 'word');
  let low = 0;
  let high = words.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (countTokens(words.slice(0, mid).join('')) <= maxTokens) low = mid;
    else high = mid - 1;
  }
  if (low > 0) return words.slice(0, low).join('');
  return chunkText(text, 'token').slice(0, maxTokens).join('');
}
