// The neutral conversation model: every chat style decodes into ChatRequest and encodes a Reply.
// Nothing here knows about HTTP or about any vendor's field names.

export const STYLE_NAMES = ['chat-completions', 'responses', 'messages', 'generate-content', 'ollama', 'openrouter', 'azure-openai', 'bedrock', 'vertex'] as const;
export type StyleName = (typeof STYLE_NAMES)[number];

/** Where a content filter acts: on the prompt (nothing is generated) or on the completion. */
export const FILTER_STAGES = ['prompt', 'completion'] as const;
export type FilterStage = (typeof FILTER_STAGES)[number];

export type JsonSchema = Record<string, unknown>;

export type Part =
  | { kind: 'text'; text: string }
  /** Media sent inline (base64) or by URL; `data` is the base64 payload when inline. */
  | { kind: 'media'; mimeType: string; data?: string; url?: string }
  /** A tool call made by the assistant in an earlier turn. */
  | { kind: 'tool_call'; id: string; name: string; arguments: unknown }
  /** The result of a tool call, sent back by the client. */
  | { kind: 'tool_result'; callId: string; name?: string; content: string }
  | { kind: 'reasoning'; text: string };

export type Role = 'user' | 'assistant' | 'tool';

export interface Turn {
  role: Role;
  parts: Part[];
}

/** A freeform tool's grammar, as the client declares it (OpenAI custom tools' `format.grammar`). */
export interface ToolGrammar {
  syntax: 'lark' | 'regex';
  definition: string;
}

export interface ToolDef {
  name: string;
  description?: string;
  parameters: JsonSchema;
  /** A freeform (custom) tool: called with raw text, which fits its grammar when it has one. */
  freeform?: { grammar?: ToolGrammar };
  /** A tool the client runs itself that the vendor calls with an item of its own (responses). */
  builtin?: 'shell' | 'apply_patch';
  /** The namespace a function is declared in (responses `namespace` tools). */
  namespace?: string;
}

export type ToolChoice =
  | { mode: 'auto' }
  | { mode: 'none' }
  /** `among`: the only tools the call may name (generate-content's allowedFunctionNames, responses' allowed_tools). */
  | { mode: 'required'; among?: readonly string[] }
  | { mode: 'tool'; name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name?: string; schema: JsonSchema }
  /** One of these values, as said (generate-content `responseMimeType: "text/x.enum"`). */
  | { type: 'enum'; values: readonly string[] };

export interface ReasoningRequest {
  effort?: string;
  budgetTokens?: number;
  /** Whether the client asked to see the reasoning text (thinking blocks, thought parts, summaries). */
  visible: boolean;
}

/** Image output asked of a chat style (generate-content `responseModalities`, chat-completions image_config). */
export interface ImageOutputRequest {
  aspectRatio?: string;
  imageSize?: string;
  /** Also answer with text next to the image. */
  withText: boolean;
  /** Where the style read aspectRatio and imageSize, so a bad value's 400 names the field. */
  fields?: { aspectRatio: string; imageSize: string };
}

/** A system instruction sent inside the conversation: its text, and how many turns came before it. */
export interface SystemAt {
  turn: number;
  text: string;
}

export interface ChatRequest {
  style: StyleName;
  model: string;
  /** Every system instruction's text, joined in order: the top-level ones and those of `systemAt`. */
  system: string;
  /** System instructions given after the conversation began, where they were given (none when absent). */
  systemAt?: readonly SystemAt[];
  turns: Turn[];
  tools: ToolDef[];
  toolChoice: ToolChoice;
  maxOutputTokens?: number;
  reasoning?: ReasoningRequest;
  responseFormat: ResponseFormat;
  /** n (chat-completions) or candidateCount (generate-content); 1 elsewhere. */
  choices: number;
  stopSequences: string[];
  stream: boolean;
  temperature?: number;
  seed?: number;
  imageOutput?: ImageOutputRequest;
  /** Spoken output asked (chat-completions `modalities: ["audio"]` with `audio`): the reply's text is said in this voice. */
  audioOutput?: { voice: string; format: string };
  /** Log probabilities asked for the text, with this many alternatives a token. */
  logprobs?: { top: number };
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** The decoded body as sent, for `{{request.field}}` templates. */
  body: Record<string, unknown>;
  /** How many turns at the head of `turns` came from a stored response (`previous_response_id`). */
  carriedTurns?: number;
}

/** `refusal`: the model declined (a semantic fault); each style spells it its own way. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'refusal';

export interface ToolCall {
  /** Neutral id; each style adds its own prefix (call_, toolu_, ...). */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The raw text of a call of a freeform tool (its arguments are then empty). */
  input?: string;
  /**
   * The arguments as sent when they are not the JSON of `arguments` (a fault cut them short);
   * `arguments` then holds the properties sent whole, for the styles whose calls carry an object.
   */
  argumentsText?: string;
  /** A call of a tool the request did not declare (a fault), which generate-content flags. */
  undeclared?: true;
}

export interface ReplyImage {
  mimeType: string;
  /** base64 */
  data: string;
}

export interface ReplyChoice {
  text: string;
  reasoning?: string;
  toolCalls: ToolCall[];
  images: ReplyImage[];
  /** The text spoken, when the request asked for audio output: base64 audio in the asked format. */
  /** `seconds`: how long the speech lasts, what its audio tokens are counted from. */
  audio?: { data: string; transcript: string; seconds: number };
  finishReason: FinishReason;
  /** The stop sequence that ended the text, when one did. */
  stopSequence?: string;
  /** The text split the way the stream sends it (by token, word or char). */
  textChunks: readonly string[];
  reasoningChunks: readonly string[];
}

export interface Usage {
  inputTokens: number;
  /** Visible output: text and tool-call arguments, over all choices. */
  outputTokens: number;
  /** Reasoning tokens, over all choices (counted apart; styles add them where the vendor does). */
  reasoningTokens: number;
  cachedTokens: number;
}

export type ChunkBy = 'token' | 'word' | 'char';

/** A spread of durations: half are under `p50Ms`, 99 in 100 under `p99Ms`; log-normal between (conversation/latency.ts). */
export interface Spread {
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** A model's latency profile: its first token's pause and each later token's. */
export interface LatencyProfile {
  readonly firstTokenMs: Spread;
  readonly tokenMs: Spread;
}

export interface Pacing {
  /** The fixed pauses; with `drawn`, the medians of the spreads it draws from. */
  firstChunkMs: number;
  chunkMs: number;
  /** A model's latency profile (conversation/latency.ts): the pauses it draws, and the stream's seed. */
  drawn?: { firstChunk?: Spread; chunk?: Spread; seed: readonly (string | number)[] };
}

export interface Reply {
  /** Base id shared by every id of this reply (derived from seed, session and counter). */
  id: string;
  model: string;
  /** Creation time in ms on the mock clock. */
  createdMs: number;
  choices: ReplyChoice[];
  usage: Usage;
  pacing: Pacing;
  /** Name of the fixture that answered; undefined for a generated reply. */
  fixture?: string;
  /** The provider's filter blocked the prompt itself (generate-content answers it with no candidates). */
  promptBlocked?: true;
  /** The semantic fault the reply was asked to carry, and whether it had anything to act on. */
  /** `on`: where a content filter acted, when the step said. */
  fault?: { name: string; applied: boolean; on?: FilterStage };
  /** What the answer cost at the catalog's prices (0 when the model has none), for styles that report it (OpenRouter's `usage.cost`). */
  costUsd?: number;
}

/** Stream settings a fixture may carry. */
export interface StreamSettings {
  firstChunkMs?: number;
  chunkMs?: number;
  chunkBy?: ChunkBy;
}
