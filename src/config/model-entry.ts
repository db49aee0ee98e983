// A catalog entry from its YAML (a fixtures file's `models:` or the default catalog): the
// defaults every model gets, and dates in the vendor's spelling.
import type { LatencyProfile } from '../conversation/types.js';
import type { VideoTiming } from '../conversation/video.js';
import type { ModelSpec, VideoTimingSpec } from './schema.js';
import type { ModelEntry } from './types.js';

function ownerOf(id: string): string {
  if (/^(gpt|o\d|dall-e|sora|chatgpt)/.test(id)) return 'openai';
  if (id.startsWith('claude')) return 'anthropic';
  if (/^(gemini|imagen|veo)/.test(id)) return 'google';
  return 'system';
}

/** A date is its day's start in UTC, in the vendor's spelling (no milliseconds). */
function rfc3339(moment: string): string {
  return new Date(moment.length === 10 ? `${moment}T00:00:00Z` : moment).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function toModelEntry(spec: ModelSpec): ModelEntry {
  return {
    id: spec.id,
    ownedBy: spec.owned_by ?? ownerOf(spec.id),
    kind: spec.kind ?? 'chat',
    displayName: spec.display_name ?? spec.id,
    description: spec.description ?? '',
    inputTokenLimit: spec.input_token_limit ?? 128_000,
    outputTokenLimit: spec.output_token_limit ?? 16_384,
    // A fixed default keeps model lists byte-identical from run to run.
    created: spec.created ?? 1_700_000_000,
    reasoning: spec.reasoning ?? false,
    lifecycle: spec.lifecycle ?? 'active',
    ...(spec.deprecated_at ? { deprecatedAt: rfc3339(spec.deprecated_at) } : {}),
    ...(spec.retires_at ? { retiresAt: rfc3339(spec.retires_at) } : {}),
    chatImageOutput: spec.chat_image_output ?? 'images',
    dimensions: spec.dimensions ?? 1536,
    timing: videoTiming(spec.timing),
    pricing: spec.pricing,
    ...(spec.latency && { latency: latencyProfile(spec.latency) }),
  };
}

function latencyProfile(spec: NonNullable<ModelSpec['latency']>): LatencyProfile {
  const spread = ({ p50, p99 }: { p50: number; p99: number }) => ({ p50Ms: p50, p99Ms: p99 });
  return { firstTokenMs: spread(spec.first_token_ms), tokenMs: spread(spec.token_ms) };
}

/** A `timing:` block of a model or a videos fixture, as the tasks read it. */
export function videoTiming(spec: VideoTimingSpec | undefined): Partial<VideoTiming> | undefined {
  return spec && { queuedMs: spec.queued_ms, runMs: spec.run_ms, progressBy: spec.progress_by, step: spec.step };
}

/**
 * What a 404 for a model the catalog does not hold says: the models it holds, and the one line of
 * a fixtures file that adds the one asked for (a user's next step, so the message gives it).
 */
export function unknownModelMessage(id: string, known: readonly string[], kind?: ModelEntry['kind']): string {
  const entry = kind === undefined || kind === 'chat' ? `- { id: ${id} }` : `- { id: ${id}, kind: ${kind} }`;
  return `Known models: ${known.join(', ')}. To serve it, add it under \`models:\` in a fixtures file: \`${entry}\`.`;
}
