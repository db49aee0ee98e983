// Bodies of the requests that make a video from another one (`POST /v1/videos/{id}/remix`,
// `/v1/videos/edits`, `/v1/videos/extensions`) and of `POST /v1/videos/characters`. JSON or
// multipart; the source video is a `video[id]` reference here, or a file checked apart.
import * as z from 'zod';
import { invalid } from '../../conversation/errors.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';
import { formInt } from '../form.js';
import { parseBody } from '../validate.js';

/**
 * The bodies' schemas, made once at the first such request: a schema made a request was compiled
 * anew by zod (its object parser is generated code) and narrowed anew (present-keys.ts) each time.
 */
const schemas = madeAtFirstUse(() => {
  const prompt = z.string();
  const reference = z.looseObject({ id: z.string().min(1) });
  return {
    remix: z.looseObject({ prompt }),
    edit: z.looseObject({ prompt, video: reference.nullish() }),
    extension: z.looseObject({ prompt, seconds: formInt(1, 60), video: reference.nullish() }),
    character: z.looseObject({ name: z.string() }),
  };
});

function nonEmpty(value: string, field: string): string {
  if (value.trim() === '') throw invalid(`Invalid value for '${field}': it must not be empty.`, field);
  return value;
}

export interface DerivedVideoRequest {
  prompt: string;
  /** The id of the video it derives from, when given as a reference rather than a file. */
  sourceId?: string;
  /** An extension's own length, which the new video adds to its source's. */
  seconds?: number;
}

export function decodeRemix(input: unknown): DerivedVideoRequest {
  const data = parseBody(schemas().remix, input);
  return { prompt: nonEmpty(data.prompt, 'prompt') };
}

export function decodeEdit(input: unknown): DerivedVideoRequest {
  const data = parseBody(schemas().edit, input);
  return { prompt: nonEmpty(data.prompt, 'prompt'), sourceId: data.video?.id };
}

export function decodeExtension(input: unknown): DerivedVideoRequest {
  const data = parseBody(schemas().extension, input);
  return { prompt: nonEmpty(data.prompt, 'prompt'), sourceId: data.video?.id, seconds: data.seconds };
}

export function decodeCharacter(input: unknown): { name: string } {
  const data = parseBody(schemas().character, input);
  return { name: nonEmpty(data.name, 'name') };
}

/** A character made from footage, as `createCharacter` and `getCharacter` answer it. */
export function characterObject(character: { id: string; name: string; createdMs: number }): unknown {
  return { id: character.id, created_at: Math.floor(character.createdMs / 1000), name: character.name };
}
