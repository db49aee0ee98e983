// What a recording no fixture knows is taken to say: seeded sentences, as many words as a talker
// fits in its length, so a transcript's size follows the audio's.
import { fakerLater } from './faker.js';
import type { Random } from './random.js';

const SENTENCES = [
  'We should {{hacker.verb}} the {{hacker.adjective}} {{hacker.noun}} before the next release.',
  'Can everyone see the {{company.buzzNoun}} on the shared screen?',
  'The plan is to {{company.buzzPhrase}} by the end of the quarter.',
  'I think the {{hacker.noun}} is {{hacker.ingverb}} again.',
  "Let's take the {{hacker.adjective}} {{hacker.noun}} offline and come back to it.",
  'Thanks for joining, everyone.',
  'The numbers for the {{company.buzzAdjective}} {{company.buzzNoun}} look good so far.',
  'Who owns the {{hacker.abbreviation}} migration?',
];

const faker = fakerLater();

/** Sentences adding up to `words` words, at least one (the last sentence cut short when it runs over). */
export function spokenProse(random: Random, words: number): string {
  faker().seed(random.int(0, 0xffffffff));
  const wanted = Math.max(1, words);
  const said: string[] = [];
  while (said.length < wanted) said.push(...faker().helpers.fake(random.pick(SENTENCES)).split(/\s+/));
  const cut = said.slice(0, wanted);
  const last = cut.length - 1;
  if (!/[.!?]$/.test(cut[last]!)) cut[last] = `${cut[last]!.replace(/[,;:]$/, '')}.`;
  return cut.join(' ');
}
