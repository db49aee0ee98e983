// Moderation verdicts: the thirteen categories of the openai SDK's `Moderation` type, each with
// the input types it applies to, a small deterministic score when nothing is flagged, and a high
// one for the categories a `moderations:` fixture flags.
import { seededRandom } from './random.js';

/** The categories and the input types each is judged on (`category_applied_input_types`). */
export const MODERATION_CATEGORIES = {
  harassment: ['text'],
  'harassment/threatening': ['text'],
  hate: ['text'],
  'hate/threatening': ['text'],
  illicit: ['text'],
  'illicit/violent': ['text'],
  'self-harm': ['text', 'image'],
  'self-harm/instructions': ['text', 'image'],
  'self-harm/intent': ['text', 'image'],
  sexual: ['text', 'image'],
  'sexual/minors': ['text'],
  violence: ['text', 'image'],
  'violence/graphic': ['text', 'image'],
} as const satisfies Record<string, ReadonlyArray<'text' | 'image'>>;

export type ModerationCategory = keyof typeof MODERATION_CATEGORIES;
export const CATEGORY_NAMES = Object.keys(MODERATION_CATEGORIES) as [ModerationCategory, ...ModerationCategory[]];

export interface ModerationInput {
  /** The text judged (texts of a list of parts joined). */
  text: string;
  hasText: boolean;
  hasImage: boolean;
}

export interface ModerationVerdict {
  flagged: boolean;
  categories: Record<ModerationCategory, boolean>;
  category_scores: Record<ModerationCategory, number>;
  category_applied_input_types: Record<ModerationCategory, Array<'text' | 'image'>>;
}

/** Scores below 0.01 for what passes, above 0.9 for what is flagged, seeded by the text. */
export function moderate(input: ModerationInput, flag: ReadonlySet<string>, seed: number): ModerationVerdict {
  const random = seededRandom(seed, 'moderation', input.text);
  const categories = {} as ModerationVerdict['categories'];
  const scores = {} as ModerationVerdict['category_scores'];
  const applied = {} as ModerationVerdict['category_applied_input_types'];
  for (const name of CATEGORY_NAMES) {
    const flagged = flag.has(name);
    categories[name] = flagged;
    scores[name] = flagged ? 0.9 + random.next() * 0.0999 : random.next() * 0.0099 + 0.000001;
    const types: Array<'text' | 'image'> = MODERATION_CATEGORIES[name].filter((type) => (type === 'text' ? input.hasText : input.hasImage));
    applied[name] = types;
  }
  return { flagged: flag.size > 0, categories, category_scores: scores, category_applied_input_types: applied };
}
