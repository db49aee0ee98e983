// A generate-content answer read back into the neutral reply (WIRE.md section 5): the first
// candidate's parts (thought parts as reasoning, function calls as tool calls) and usageMetadata,
// from the whole response or from each streamed element (SSE events or the JSON array's items).
import {
  asArray,
  asNumber,
  asObject,
  asString,
  reasoningOf,
  streamedReply,
  usageOf,
  type Json,
  type RecordedAnswer,
  type RecordedReply,
  type RecordedToolCall,
} from '../../conversation/recorded.js';
import type { FinishReason } from '../../conversation/types.js';

const LENGTH = new Set(['MAX_TOKENS']);
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** Function calls finish with STOP on this wire; the neutral reply says they ended the turn. */
function finishOf(value: unknown, calledTools: boolean): FinishReason | undefined {
  const reason = asString(value);
  if (reason === 'STOP') return calledTools ? 'tool_calls' : 'stop';
  if (reason && LENGTH.has(reason)) return 'length';
  if (reason && FILTERED.has(reason)) return 'content_filter';
  return undefined;
}

/** Candidates and thoughts together are the output the vendor bills. */
function usage(response: Json) {
  const figures = asObject(response.usageMetadata);
  const candidates = asNumber(figures.candidatesTokenCount);
  const thoughts = asNumber(figures.thoughtsTokenCount);
  const output = candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0);
  return usageOf(figures.promptTokenCount, output);
}

interface Read {
  texts: string[];
  thoughts: string[];
  calls: RecordedToolCall[];
  finish?: unknown;
}

function firstCandidate(response: Json): Json | undefined {
  return asArray(response.candidates)
    .map(asObject)
    .find((candidate) => (candidate.index ?? 0) === 0);
}

function readParts(response: Json, into: Read): void {
  const candidate = firstCandidate(response);
  if (!candidate) return;
  for (const part of asArray(asObject(candidate.content).parts).map(asObject)) {
    const text = asString(part.text);
    if (text !== undefined) (part.thought === true ? into.thoughts : into.texts).push(text);
    const call = asObject(part.functionCall);
    if (part.functionCall !== undefined) into.calls.push({ name: asString(call.name) ?? '', arguments: asObject(call.args) });
  }
  into.finish = candidate.finishReason ?? into.finish;
}

export function readGenerateContent(answer: RecordedAnswer): RecordedReply {
  const read: Read = { texts: [], thoughts: [], calls: [] };
  if (!answer.events) {
    const response = asObject(answer.body);
    readParts(response, read);
    return {
      text: read.texts.join(''),
      ...reasoningOf(read.thoughts.join('')),
      toolCalls: read.calls,
      finishReason: finishOf(read.finish, read.calls.length > 0),
      usage: usage(response),
    };
  }
  let figures: RecordedReply['usage'];
  for (const { data } of answer.events) {
    const response = asObject(data);
    readParts(response, read);
    // Usage is a running total on every chunk: the last one holds the whole reply's figures.
    figures = usage(response) ?? figures;
  }
  return streamedReply(read.texts, read.thoughts, {
    toolCalls: read.calls,
    finishReason: finishOf(read.finish, read.calls.length > 0),
    usage: figures,
  });
}
