// `transcriptions:` fixtures: what a transcription (or translation) of a given upload says.
// Matched on the request's model, language and prompt and on the file's name and content hash,
// compiled once at load.
import * as z from 'zod';
import { madeAtFirstUse } from './first-use.js';
import { globPattern } from './match.js';
import { PatternWork } from './pattern-work.js';

/** Made with the configuration's other schemas, at their first use (`config/schema.ts`). */
export const transcriptionFixtureSchema = madeAtFirstUse(() =>
  z.strictObject({
    name: z.string().optional(),
    match: z
      .strictObject({
        model: z.string().optional(),
        language: z.string().optional(),
        /** A case-insensitive substring of the request's `prompt`. */
        prompt: z.string().optional(),
        file_name: z.string().optional(),
        sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'expected the 64 hex digits of the file\'s SHA-256').optional(),
      })
      .optional(),
    reply: z.strictObject({ text: z.string(), language: z.string().optional() }),
    priority: z.number().int().optional(),
  }),
);

export type TranscriptionFixtureSpec = z.infer<ReturnType<typeof transcriptionFixtureSchema>>;

export interface TranscriptionSubject {
  model: string;
  language?: string;
  prompt?: string;
  fileName: string;
  sha256: string;
}

export interface TranscriptionFixture {
  name: string;
  file: string;
  order: number;
  priority: number;
  reply: { text: string; language?: string };
  /** `work`: what the request's globs may still cost (pattern-work.ts). */
  test(subject: TranscriptionSubject, work: PatternWork): boolean;
}

export function compileTranscriptionFixture(spec: TranscriptionFixtureSpec, file: string, order: number): TranscriptionFixture {
  const match = spec.match ?? {};
  const checks: Array<(subject: TranscriptionSubject, work: PatternWork) => boolean> = [];
  if (match.model !== undefined) {
    const model = globPattern(match.model, ['match', 'model']);
    checks.push((s, work) => model.find(s.model, work) !== undefined);
  }
  if (match.file_name !== undefined) {
    const name = globPattern(match.file_name, ['match', 'file_name']);
    checks.push((s, work) => name.find(s.fileName, work) !== undefined);
  }
  const language = match.language?.toLowerCase();
  if (language !== undefined) checks.push((s) => s.language?.toLowerCase() === language);
  const prompt = match.prompt?.toLowerCase();
  if (prompt !== undefined) checks.push((s) => s.prompt?.toLowerCase().includes(prompt) === true);
  const sha256 = match.sha256?.toLowerCase();
  if (sha256 !== undefined) checks.push((s) => s.sha256 === sha256);
  return {
    name: spec.name ?? `${file}#${order}`,
    file,
    order,
    priority: spec.priority ?? 0,
    reply: spec.reply,
    test: (subject, work) => checks.every((check) => check(subject, work)),
  };
}

/** The first fixture (highest priority, then file order) whose every key holds. */
export function firstTranscription(fixtures: readonly TranscriptionFixture[], subject: TranscriptionSubject): TranscriptionFixture | undefined {
  const work = new PatternWork();
  return fixtures.find((fixture) => fixture.test(subject, work));
}
