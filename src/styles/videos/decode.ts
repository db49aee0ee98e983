// Video task bodies (`POST /v1/videos`, `POST /v1/video/generations`), JSON or multipart, into
// one VideoRequest. Every field of the gateway description is checked; unknown fields pass.
// The legacy copies under `metadata` stand in for top-level fields that are left out.
import * as z from 'zod';
import { invalid } from '../../conversation/errors.js';
import { MAX_BODY_DEPTH, tooDeepToParse } from '../../conversation/json-text.js';
import { measureBody } from '../body-shape.js';
import { formBool, formInt } from '../form.js';
import { parseBody } from '../validate.js';
import { madeAtFirstUse } from '../../conversation/first-use.js';

const tooDeep = () => invalid(`Invalid value for 'metadata': it nests deeper than ${MAX_BODY_DEPTH} levels.`, 'metadata');

function jsonObjectText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  // Parsed here, not by the body parser: held to the same depth as a body, a large text before it is parsed.
  if (tooDeepToParse(value)) throw tooDeep();
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return value;
  }
  if (!measureBody(parsed).withinDepth) throw tooDeep();
  return parsed;
}

/** The body's schema, made at the first video request: a start that serves none builds none. */
const schemas = madeAtFirstUse(() => {
  const frameOptions = {
    seconds: formInt(1, 60).transform(String).nullish(),
    size: z.string().nullish(),
    resolution: z.string().nullish(),
    ratio: z.string().nullish(),
    generate_audio: formBool().nullish(),
    watermark: formBool().nullish(),
    camera_fixed: formBool().nullish(),
    return_last_frame: formBool().nullish(),
  };

  /** `metadata.content` items: `{type: "text", text}` or `{type: "<kind>_url", "<kind>_url": {url}}`. */
  const contentItem = z.looseObject({ type: z.string().min(1), text: z.string().optional() }).superRefine((item, ctx) => {
    if (item.type === 'text' && typeof item.text !== 'string') {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'a text item needs a text string' });
    }
    if (item.type.endsWith('_url')) {
      const media = (item as Record<string, unknown>)[item.type];
      const url = typeof media === 'string' ? media : (media as { url?: unknown } | undefined)?.url;
      if (typeof url !== 'string' || url === '') {
        ctx.addIssue({ code: 'custom', path: [item.type], message: `a ${item.type} item needs ${item.type}.url` });
      }
    }
  });

  const metadata = z.preprocess(
    jsonObjectText,
    z.looseObject({ ...frameOptions, content: z.array(contentItem).nullish() }),
  );

  const body = z.looseObject({
    model: z.string().min(1).nullish(),
    prompt: z.string().nullish(),
    ...frameOptions,
    metadata: metadata.nullish(),
    input_reference: z
      .union([
        z.string().min(1),
        z.strictObject({ image_url: z.string().min(1).optional(), file_id: z.string().min(1).optional() }),
      ])
      .nullish(),
  });
  return { body };
});

type Body = z.infer<ReturnType<typeof schemas>['body']>;

/** A value and the field it came from (`ratio` or `metadata.ratio`), to name it in a 400. */
export interface Sourced {
  value: string;
  field: string;
}

export interface VideoRequest {
  model?: string;
  prompt: string;
  seconds: string;
  size?: Sourced;
  ratio?: Sourced;
  resolution?: Sourced;
  metadata?: Record<string, unknown>;
}

function sourced(data: Body, key: 'size' | 'ratio' | 'resolution'): Sourced | undefined {
  if (data[key] != null) return { value: data[key], field: key };
  const legacy = data.metadata?.[key];
  return legacy != null ? { value: legacy, field: `metadata.${key}` } : undefined;
}

/** The prompt, or failing that the text item of `metadata.content`. */
function promptOf(data: Body): string {
  const text = data.metadata?.content?.find((item) => item.type === 'text')?.text;
  const prompt = data.prompt ?? text;
  if (prompt === undefined || prompt.trim() === '') {
    throw invalid(
      data.prompt == null ? "Missing required parameter: 'prompt'." : "Invalid value for 'prompt': it must not be empty.",
      'prompt',
      data.prompt == null ? 'missing_required_parameter' : 'invalid_value',
    );
  }
  return prompt;
}

export function decodeVideoRequest(input: unknown): VideoRequest {
  const data = parseBody(schemas().body, input);
  return {
    model: data.model ?? undefined,
    prompt: promptOf(data),
    seconds: data.seconds ?? data.metadata?.seconds ?? '4',
    size: sourced(data, 'size'),
    ratio: sourced(data, 'ratio'),
    resolution: sourced(data, 'resolution'),
    metadata: data.metadata ?? undefined,
  };
}
