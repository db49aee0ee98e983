// The one schema of every YAML file: fixtures files (models, keys, chat, images, videos,
// transcriptions, image_generation) and scenario files (scenarios). Unknown keys are refused so typos surface.
// Built at its first use: a start on the package's own files alone (checked when the package was
// built, src/config/shipped-yaml.ts) never builds it.
import * as z from 'zod';
import { madeAtFirstUse } from '../conversation/first-use.js';
import { fixtureSchemas } from '../conversation/fixture-schema.js';
import { LANGUAGES, SEMANTIC_FAULTS, TRANSPORT_FAULTS, VIOLATIONS } from '../conversation/faults.js';
import { FILTER_STAGES } from '../conversation/types.js';
import { mcpSchemas } from '../conversation/mcp-schema.js';
import { CATEGORY_NAMES } from '../conversation/moderation.js';
import { transcriptionFixtureSchema } from '../conversation/transcription-fixture.js';

/** Every schema, made when first asked for: building them was about 20 ms of every start. */
function build() {
  const { answerHeaders, chatFixtureSchema, chatImageOutput, driftEntrySchema, errorKind, matchSchema, nonNegative } = fixtureSchemas();
  const { mcpServerSchema } = mcpSchemas();
  const videoTimingSchema = z.strictObject({
    queued_ms: nonNegative.optional(),
    run_ms: nonNegative.optional(),
    progress_by: z.enum(['time', 'polls']).optional(),
    step: z.number().int().min(1).max(100).optional(),
  });

  const usd = z.number().nonnegative();

  /** USD per million tokens, per image by size, per second of video, per minute, per million characters (SPEC 17). */
  const pricingSchema = z.strictObject({
    input: usd.optional(),
    cached_input: usd.optional(),
    output: usd.optional(),
    audio_output: usd.optional(),
    image: z.record(z.string().regex(/^\d+x\d+$/, { error: 'an image size is WIDTHxHEIGHT, e.g. 1024x1024' }), usd).optional(),
    second: usd.optional(),
    minute: usd.optional(),
    million_characters: usd.optional(),
  });

  const moment = z.union([z.iso.date(), z.iso.datetime()]);

  /** A spread of durations in ms (conversation/latency.ts): its median and its 99th percentile. */
  const spreadSchema = z
    .strictObject({ p50: z.number().positive().max(600_000), p99: z.number().positive().max(600_000) })
    .refine((spread) => spread.p99 >= spread.p50, { error: 'p99 must be at least p50', path: ['p99'] });

  /** A model's stream latency under `--latency realistic`: the first token's pause and each later token's. */
  const latencyProfileSchema = z.strictObject({ first_token_ms: spreadSchema, token_ms: spreadSchema });

  const modelSchema = z.strictObject({
    id: z.string().min(1),
    owned_by: z.string().optional(),
    kind: z.enum(['chat', 'image', 'video', 'speech', 'transcription', 'embedding', 'rerank', 'moderation', 'completion', 'realtime']).optional(),
    /** An embedding model's vector size (default 1536). */
    dimensions: z.number().int().min(1).max(65_536).optional(),
    display_name: z.string().optional(),
    description: z.string().optional(),
    input_token_limit: z.number().int().positive().optional(),
    output_token_limit: z.number().int().positive().optional(),
    created: nonNegative.optional(),
    reasoning: z.boolean().optional(),
    lifecycle: z.enum(['active', 'deprecated', 'retired']).optional(),
    /** When the vendor deprecated it and when it reaches end of life (a date, or a date and time). */
    deprecated_at: moment.optional(),
    retires_at: moment.optional(),
    chat_image_output: chatImageOutput.optional(),
    timing: videoTimingSchema.optional(),
    pricing: pricingSchema.optional(),
    latency: latencyProfileSchema.optional(),
  });

  const keySchema = z.strictObject({
    key: z.string().min(1),
    group: z.string().optional(),
    scenario: z.string().optional(),
  });


  const imageFixtureSchema = z.strictObject({
    name: z.string().optional(),
    match: matchSchema.optional(),
    reply: z.union([
      z.strictObject({ file: z.string().min(1) }),
      z.strictObject({ generate: z.literal(true).optional() }),
      z.strictObject({ error: errorKind, message: z.string().optional(), status: z.number().int().optional() }),
    ]),
    priority: z.number().int().optional(),
  });

  const videoFixtureSchema = z.strictObject({
    name: z.string().optional(),
    match: matchSchema.optional(),
    timing: videoTimingSchema.optional(),
    reply: z
      .strictObject({
        file: z.string().min(1).optional(),
        thumbnail: z.string().min(1).optional(),
        fail_at: z.number().int().min(0).max(100).optional(),
        error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
      })
      .optional(),
    priority: z.number().int().optional(),
  });

  /** A `batches:` entry: the timing of the batches it matches (every metadata key and value it names must be present). */
  const batchFixtureSchema = z.strictObject({
    name: z.string().optional(),
    match: z
      .strictObject({
        endpoint: z.string().optional(),
        metadata: z.record(z.string(), z.string()).optional(),
      })
      .optional(),
    timing: z.strictObject({
      validating_ms: nonNegative.optional(),
      in_progress_ms: nonNegative.optional(),
      finalizing_ms: nonNegative.optional(),
    }),
  });

  /** `like: TEXT` answers that text's vector; `vector` is used as given, at least `dimensions` long. */
  const embeddingFixtureSchema = z
    .strictObject({
      name: z.string().optional(),
      match: matchSchema.optional(),
      like: z.string().min(1).optional(),
      vector: z.array(z.number()).min(1).optional(),
      dimensions: z.number().int().min(1).max(65_536).optional(),
      priority: z.number().int().optional(),
    })
    .refine((spec) => (spec.like === undefined) !== (spec.vector === undefined), { message: 'an embeddings fixture gives exactly one of `like` and `vector`' });

  const moderationFixtureSchema = z.strictObject({
    name: z.string().optional(),
    match: matchSchema.optional(),
    flag: z.array(z.enum(CATEGORY_NAMES)).min(1),
    priority: z.number().int().optional(),
  });

  const fixturesFileSchema = z.strictObject({
    /** `replace`: this file's models are the whole catalog; else they add to the package's own. */
    catalog: z.enum(['add', 'replace']).optional(),
    models: z.array(modelSchema).optional(),
    keys: z.array(keySchema).optional(),
    chat: z.array(chatFixtureSchema).optional(),
    images: z.array(imageFixtureSchema).optional(),
    videos: z.array(videoFixtureSchema).optional(),
    embeddings: z.array(embeddingFixtureSchema).optional(),
    moderations: z.array(moderationFixtureSchema).optional(),
    transcriptions: z.array(transcriptionFixtureSchema()).optional(),
    batches: z.array(batchFixtureSchema).optional(),
    drift: z.array(driftEntrySchema).optional(),
    /** The tool servers the mock fakes at /mcp/{server} (SPEC 22). */
    mcp: z.array(mcpServerSchema).optional(),
    image_generation: z
      .strictObject({ chat_completions_only_groups: z.array(z.string()).optional() })
      .optional(),
  });

  const budget = z.number().int().positive().optional();

  /** One or several budgets over one window (SPEC 9, 17): requests, and tokens in, out or both. */
  const limitSchema = z
    .strictObject({
      requests: budget,
      input_tokens: budget,
      output_tokens: budget,
      tokens: budget,
      window_ms: z.number().int().positive(),
    })
    .refine((limit) => [limit.requests, limit.input_tokens, limit.output_tokens, limit.tokens].some((n) => n !== undefined), {
      message: 'a limit needs at least one budget: requests, input_tokens, output_tokens or tokens',
    });

  const faultKind = z.enum([...TRANSPORT_FAULTS, ...SEMANTIC_FAULTS]);

  /** The options of one semantic fault each: named with another fault, they are a mistake. */
  const FAULT_OPTIONS = { violation: 'schema_violation', tool_name: 'unknown_tool', language: 'wrong_language', on: 'content_filter' } as const;
  const faultOptions = {
    violation: z.enum(VIOLATIONS).optional(),
    tool_name: z.string().min(1).optional(),
    language: z.enum(LANGUAGES).optional(),
    on: z.enum(FILTER_STAGES).optional(),
  };

  // A step's answer must be one a client can receive and Node can write: a status with a body (no
  // 1xx, 204 or 304), header names and values that are valid HTTP (`answerHeaders`), a wait
  // setTimeout can hold.
  const STATUS_RANGE = 'a status a client can receive: an integer from 200 to 599, not 204 or 304';
  const stepStatus = z
    .number({ error: `status must be ${STATUS_RANGE}` })
    .int({ error: `status must be ${STATUS_RANGE}` })
    .min(200, { error: `status must be ${STATUS_RANGE}` })
    .max(599, { error: `status must be ${STATUS_RANGE}` })
    .refine((status) => status !== 204 && status !== 304, { error: `status must be ${STATUS_RANGE}` });
  const MAX_TIMER_MS = 2_147_483_647;
  const delayMs = z
    .number({ error: `delay_ms must be an integer from 0 to ${MAX_TIMER_MS}` })
    .int({ error: `delay_ms must be an integer from 0 to ${MAX_TIMER_MS}` })
    .min(0, { error: `delay_ms must be an integer from 0 to ${MAX_TIMER_MS}` })
    .max(MAX_TIMER_MS, { error: `delay_ms must be an integer from 0 to ${MAX_TIMER_MS} (the longest wait a timer holds)` });

  const stepOverrides = {
    times: z.number().int().positive().optional(),
    status: stepStatus.optional(),
    message: z.string().optional(),
    headers: answerHeaders.optional(),
    body: z.unknown().optional(),
    delay_ms: delayMs.optional(),
    after_chunks: nonNegative.optional(),
  };

  const stepSchema = z.union([
    z.literal('pass'),
    z.strictObject({ pass: z.literal(true), times: z.number().int().positive().optional() }),
    z.strictObject({
      error: errorKind,
      limit: limitSchema.optional(),
      // Known here only to fail at once, so a fault step's own problems are the ones reported.
      fault: z.never().optional(),
      ...stepOverrides,
    }),
    z.strictObject({ fault: faultKind, error: errorKind.optional(), ...faultOptions, ...stepOverrides }).superRefine((step, ctx) => {
      for (const [option, fault] of Object.entries(FAULT_OPTIONS)) {
        if (step[option as keyof typeof FAULT_OPTIONS] === undefined || step.fault === fault) continue;
        ctx.addIssue({ code: 'custom', path: [option], message: `${option} belongs to the ${fault} fault, not ${step.fault}` });
      }
    }),
  ]);

  const scenarioSchema = z.strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    match: matchSchema.optional(),
    cycle: z.boolean().optional(),
    steps: z.array(stepSchema).min(1),
  });

  const scenariosFileSchema = z.strictObject({
    scenarios: z.array(scenarioSchema).optional(),
  });
  return {
    videoTimingSchema,
    pricingSchema,
    latencyProfileSchema,
    modelSchema,
    keySchema,
    imageFixtureSchema,
    videoFixtureSchema,
    batchFixtureSchema,
    embeddingFixtureSchema,
    moderationFixtureSchema,
    fixturesFileSchema,
    limitSchema,
    stepSchema,
    scenarioSchema,
    scenariosFileSchema,
  };
}

type Schemas = ReturnType<typeof build>;

/** The schemas, built once, at the first check of a file that is not a shipped one. */
export const fileSchemas: () => Schemas = madeAtFirstUse(build);

/** The schema of a file in a directory of `kind`. */
export function schemaOf(kind: 'fixtures' | 'scenarios'): z.ZodType {
  const schemas = fileSchemas();
  return kind === 'fixtures' ? schemas.fixturesFileSchema : schemas.scenariosFileSchema;
}

export type FixturesFile = z.infer<Schemas['fixturesFileSchema']>;
export type ScenariosFile = z.infer<Schemas['scenariosFileSchema']>;
export type ModelSpec = z.infer<Schemas['modelSchema']>;
export type KeySpec = z.infer<Schemas['keySchema']>;
export type ImageFixtureSpec = z.infer<Schemas['imageFixtureSchema']>;
export type VideoFixtureSpec = z.infer<Schemas['videoFixtureSchema']>;
export type BatchFixtureSpec = z.infer<Schemas['batchFixtureSchema']>;
export type EmbeddingFixtureSpec = z.infer<Schemas['embeddingFixtureSchema']>;
export type ModerationFixtureSpec = z.infer<Schemas['moderationFixtureSchema']>;
export type ScenarioSpec = z.infer<Schemas['scenarioSchema']>;
export type StepSpec = z.infer<Schemas['stepSchema']>;
export type LimitSpec = z.infer<Schemas['limitSchema']>;
export type VideoTimingSpec = z.infer<Schemas['videoTimingSchema']>;
