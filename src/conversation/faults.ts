// The catalogue of scenario faults (SPEC 9 and 21): the transport faults the writer performs on a
// plan, and the semantic faults that change the reply itself before a style encodes it. One list,
// read by the scenario schema, the reply's transformation and `GET /__admin/faults`.
import { STYLE_NAMES, type FilterStage, type StyleName } from './types.js';

export const TRANSPORT_FAULTS = ['delay', 'cut_stream', 'stream_error', 'malformed', 'reset'] as const;
export const SEMANTIC_FAULTS = [
  'invalid_tool_json',
  'schema_violation',
  'unknown_tool',
  'duplicate_tool_ids',
  'truncated',
  'empty',
  'refusal',
  'content_filter',
  'reasoning_only',
  'wrong_language',
  'malformed_result',
] as const;

export type TransportFaultName = (typeof TRANSPORT_FAULTS)[number];
export type SemanticFaultName = (typeof SEMANTIC_FAULTS)[number];

export const VIOLATIONS = ['missing_required', 'wrong_type', 'enum', 'extra_property'] as const;
export type Violation = (typeof VIOLATIONS)[number];

export const LANGUAGES = ['fr', 'de', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A semantic fault as a scenario step names it, with its options. */
export interface SemanticFault {
  name: SemanticFaultName;
  violation?: Violation;
  toolName?: string;
  language?: Language;
  on?: FilterStage;
}

export interface FaultInfo {
  name: TransportFaultName | SemanticFaultName;
  kind: 'transport' | 'semantic';
  styles: string[];
  description: string;
}

const ALL = [...STYLE_NAMES, 'completions'];
const CHAT = [...STYLE_NAMES];
/**
 * Ollama's `done_reason` knows only stop and length: a local model has no provider filter.
 * Ollama's answers carry a call's arguments as an object, so they cannot be sent as text that is
 * not JSON; Ollama's calls and Gemini's carry no id a client relies on.
 */
const FILTERED = ALL.filter((style) => style !== 'ollama');
const NOT_JSON = CHAT.filter((style) => style !== 'ollama');
const CALL_IDS = ['chat-completions', 'responses', 'messages', 'openrouter', 'azure-openai', 'bedrock'];

const TRANSPORT: Record<TransportFaultName, string> = {
  delay: 'Waits delay_ms (2 s unless told) before the answer.',
  cut_stream: 'Closes the connection after after_chunks content chunks, the stream never ended.',
  stream_error: "The style's own in-stream error event after after_chunks content chunks.",
  malformed: 'A 200 whose JSON body (or a stream event) is cut short.',
  reset: 'Drops the connection before any byte of the answer.',
};

const SEMANTIC: Record<SemanticFaultName, { styles: readonly string[]; description: string }> = {
  invalid_tool_json: {
    styles: NOT_JSON,
    description:
      'A tool call whose arguments are not valid JSON (cut inside an object or string). messages (and the clouds\' messages bodies): streamed only; generate-content: finishReason MALFORMED_FUNCTION_CALL with no call; bedrock Converse: stopReason malformed_tool_use with no call.',
  },
  schema_violation: {
    styles: CHAT,
    description:
      "Tool arguments or structured output that parse but break the request's own schema; violation: missing_required | wrong_type | enum | extra_property picks how.",
  },
  unknown_tool: { styles: CHAT, description: 'A call of a tool the request did not declare (tool_name: picks the name).' },
  duplicate_tool_ids: { styles: CALL_IDS, description: 'Two tool calls that share one id.' },
  truncated: { styles: ALL, description: "The output limit reached mid-answer (text or tool arguments cut), with the style's length stop." },
  empty: { styles: ALL, description: 'A normal stop with no text and no tool call.' },
  refusal: { styles: CHAT, description: "The style's refusal (message.refusal, a refusal part, stop_reason refusal, finishReason SAFETY)." },
  content_filter: {
    styles: FILTERED,
    description:
      "The provider's filter stop (finish_reason content_filter, incomplete, promptFeedback.blockReason, refusal); on: prompt | completion says what it filtered (azure-openai: prompt is Azure's 400 content_filter; generate-content: completion is finishReason SAFETY).",
  },
  reasoning_only: { styles: CHAT, description: 'Reasoning, then a normal stop with no answer; for requests that ask for reasoning.' },
  wrong_language: { styles: ALL, description: "The answer in French, German or Spanish (language: fr | de | es picks), not the request's language." },
  malformed_result: { styles: ['mcp'], description: "A fake MCP tool's result that breaks the tool's output schema (SPEC 22)." },
};

/** Whether a semantic fault acts in a style (`completions` for the legacy door), as the catalogue lists it. */
export function appliesIn(name: SemanticFaultName, style: StyleName | 'completions'): boolean {
  return SEMANTIC[name].styles.includes(style);
}

export function isSemantic(name: string): name is SemanticFaultName {
  return (SEMANTIC_FAULTS as readonly string[]).includes(name);
}

/** Every fault, as `GET /__admin/faults` and MCP `list_faults` list them. */
export function faultCatalogue(): FaultInfo[] {
  return [
    ...TRANSPORT_FAULTS.map((name): FaultInfo => ({ name, kind: 'transport', styles: ALL, description: TRANSPORT[name] })),
    ...SEMANTIC_FAULTS.map((name): FaultInfo => ({ name, kind: 'semantic', styles: [...SEMANTIC[name].styles], description: SEMANTIC[name].description })),
  ];
}

const NOT_APPLICABLE = ' (not applicable)';

/** The journal's `fault` for a semantic fault that had nothing to act on. */
export function notApplicable(name: string): string {
  return `${name}${NOT_APPLICABLE}`;
}

/** Whether a journal `fault` says a fault acted (not one that did not apply). */
export function fired(fault: string | null): fault is string {
  return fault !== null && !fault.endsWith(NOT_APPLICABLE);
}
