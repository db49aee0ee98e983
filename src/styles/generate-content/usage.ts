// `usageMetadata` and countTokens' `promptTokensDetails`: the shared counts, with the prompt split
// by modality the way the vendor reports media (each media part's flat share under its modality).
import { countInputTokens } from '../../conversation/input-tokens.js';
import type { ChatRequest, Usage } from '../../conversation/types.js';

export interface ModalityCount {
  modality: string;
  tokenCount: number;
}

function modalityOf(mimeType: string): string {
  const family = mimeType.toLowerCase().split('/')[0];
  if (family === 'image') return 'IMAGE';
  if (family === 'audio') return 'AUDIO';
  if (family === 'video') return 'VIDEO';
  return 'DOCUMENT';
}

/** `total` split into TEXT and one entry per media modality; a plain-text prompt is all TEXT. */
export function promptDetails(request: ChatRequest, total: number): ModalityCount[] {
  const media = request.turns.flatMap((turn) => turn.parts.flatMap((part) => (part.kind === 'media' ? [part.mimeType] : [])));
  if (media.length === 0) return [{ modality: 'TEXT', tokenCount: total }];
  const textOnly = { ...request, turns: request.turns.map((turn) => ({ ...turn, parts: turn.parts.filter((p) => p.kind !== 'media') })) };
  const share = (total - Math.min(total, countInputTokens(textOnly))) / media.length;
  const byModality = new Map<string, number>();
  for (const type of media) byModality.set(modalityOf(type), (byModality.get(modalityOf(type)) ?? 0) + share);
  const counts = [...byModality].map(([modality, count]) => ({ modality, tokenCount: Math.round(count) }));
  // TEXT takes what rounding left, so the details always add up to the prompt count.
  return [{ modality: 'TEXT', tokenCount: total - counts.reduce((sum, c) => sum + c.tokenCount, 0) }, ...counts];
}

export interface UsageSoFar {
  candidates: number;
  thoughts: number;
}

export function usageMetadata(usage: Usage, details: ModalityCount[], soFar: UsageSoFar = { candidates: usage.outputTokens, thoughts: usage.reasoningTokens }) {
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: soFar.candidates,
    totalTokenCount: usage.inputTokens + soFar.candidates + soFar.thoughts,
    ...(usage.reasoningTokens > 0 ? { thoughtsTokenCount: soFar.thoughts } : {}),
    promptTokensDetails: details,
  };
}
