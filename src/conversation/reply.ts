// Deciding the reply once, for every style: a fixture rendered with its captures, or a seeded
// generated reply. Output limits, stop sequences and usage are applied here, so the four styles
// can only differ in how they spell the same reply. The reply is made in steps: a long text is
// counted a segment a step, so a template's 128 KB of output does not hold the loop in one piece.
import type { ChatFixture, CompiledText, Selection } from './fixture.js';
import { argumentsText } from './call-arguments.js';
import { generatedArguments, type Draft } from './draft.js';
import type { SemanticFault } from './faults.js';
import { forcedTools } from './forced-tool.js';
import { freeformInput } from './freeform.js';
import { misbehave } from './misbehave.js';
import { generateProse, generateReasoning } from './prose.js';
import { contentKey } from './content-key.js';
import { seededRandom, type Random } from './random.js';
import { generateFromSchema } from './schema-gen.js';
import { turnText } from './subject.js';
import type { TemplateScope } from './template.js';
import { countInputTokens } from './input-tokens.js';
import { chunkText, firstTokens } from './token-chunks.js';
import type { Steps } from './steps.js';
import { countTokens, TokenCounter } from './tokens.js';
import type { ChatRequest, ChunkBy, FinishReason, Pacing, Reply, ReplyChoice, ToolCall, ToolDef, Usage } from './types.js';

export interface ReplyContext {
  /** Base id of the reply (seed, session, counter). */
  id: string;
  createdMs: number;
  seed: number;
  chunkBy: ChunkBy;
  pacing: Pacing;
  /** The model's output limit, used when the request sets none. */
  outputLimit: number;
  /** A scenario's semantic fault, which the reply carries where it has something to act on. */
  fault?: SemanticFault;
}

function cutAtStop(text: string, stops: readonly string[]): { text: string; stop?: string } {
  let cut = -1;
  let stop: string | undefined;
  for (const candidate of stops) {
    const index = candidate ? text.indexOf(candidate) : -1;
    if (index >= 0 && (cut < 0 || index < cut)) {
      cut = index;
      stop = candidate;
    }
  }
  return cut < 0 ? { text } : { text: text.slice(0, cut), stop };
}

function limitTokens(text: string, tokens: number, limit: number): { text: string; tokens: number; cut: boolean } {
  if (tokens <= limit) return { text, tokens, cut: false };
  const kept = firstTokens(text, limit).join('');
  return { text: kept, tokens: countTokens(kept), cut: true };
}

/** A named or allowed tool is called by the first name, a reply the vendor could give and a stable one. */
function toolToCall(request: ChatRequest, random: Random): ToolDef | undefined {
  const forced = forcedTools(request.toolChoice);
  if (forced === 'any') return request.tools.length > 0 ? random.pick(request.tools) : undefined;
  return forced && request.tools.find((t) => t.name === forced[0]);
}

function generatedText(request: ChatRequest, random: Random, limit: number): string {
  const format = request.responseFormat;
  if (format.type === 'json_schema') return JSON.stringify(generateFromSchema(format.schema, random));
  if (format.type === 'enum') return random.pick(format.values);
  if (format.type === 'json_object') return JSON.stringify({ answer: generateProse(random, Math.max(1, limit - 8)) });
  return generateProse(random, limit);
}

function render(text: CompiledText | undefined, scope: TemplateScope): { text: string; tokens?: number } | undefined {
  if (!text) return undefined;
  const constant = text.template.constant;
  return constant !== undefined ? { text: constant, tokens: text.tokens } : { text: text.template.render(scope) };
}

/**
 * A fixture's call as the request's tool takes it: raw input for a freeform tool (arguments given
 * for one are its input as JSON text), arguments for the rest (input given for one is `{ input }`).
 */
function fixtureCall(request: ChatRequest, call: ChatFixture['toolCalls'][number], scope: TemplateScope, id: string): ToolCall {
  const freeform = request.tools.some((tool) => tool.name === call.name && tool.freeform);
  const input = render(call.input, scope)?.text;
  if (input === undefined) {
    const args = call.arguments(scope) as Record<string, unknown>;
    return freeform ? { id, name: call.name, arguments: {}, input: JSON.stringify(args) } : { id, name: call.name, arguments: args };
  }
  return freeform ? { id, name: call.name, arguments: {}, input } : { id, name: call.name, arguments: { input } };
}

function fixtureDraft(request: ChatRequest, selection: Selection<ChatFixture>, scope: TemplateScope, id: string): Draft {
  const { fixture } = selection;
  const text = render(fixture.text, scope);
  return {
    text: text?.text ?? '',
    textTokens: text?.tokens,
    reasoning: render(fixture.reasoning, scope)?.text,
    toolCalls: fixture.toolCalls.map((call, i) => fixtureCall(request, call, scope, `${id}${i}`)),
    finishReason: fixture.finishReason,
    chunks: fixture.chunks,
  };
}

function generatedDraft(request: ChatRequest, random: Random, limit: number, id: string): Draft {
  const tool = toolToCall(request, random);
  if (tool?.freeform) return { text: '', toolCalls: [{ id: `${id}0`, name: tool.name, arguments: {}, input: freeformInput(tool, random) }] };
  if (tool) return { text: '', toolCalls: [{ id: `${id}0`, name: tool.name, arguments: generatedArguments(tool, random) }] };
  return { text: generatedText(request, random, limit), toolCalls: [] };
}

/**
 * Whether making the reply may refuse the request, which is known only once it is made: a schema
 * or a grammar beyond the generator's reach (generation-budget.ts, freeform.ts). A fixture's reply
 * and generated prose never do.
 */
export function mayRefuse(request: ChatRequest, selection: Selection<ChatFixture> | undefined): boolean {
  return selection === undefined && (request.responseFormat.type === 'json_schema' || forcedTools(request.toolChoice) !== undefined);
}

/** A limit of 0 (the messages style's prompt-cache warm-up) says nothing at all: no text, call or thought. */
const NOTHING: Draft = { text: '', toolCalls: [], finishReason: 'length' };

/** A choice, and the output tokens it took (apart: a rest pattern that took them out copied the choice). */
function* finishSteps(given: Draft, request: ChatRequest, limit: number, chunkBy: ChunkBy, random: () => Random): Steps<{ choice: ReplyChoice; tokens: number }> {
  const draft = limit === 0 ? NOTHING : given;
  const stopped = cutAtStop(draft.text, request.stopSequences);
  const counted = stopped.text === draft.text && draft.textTokens !== undefined ? draft.textTokens : yield* new TokenCounter().countSteps(stopped.text);
  const limited = limitTokens(stopped.text, counted, limit);
  const reasoning = request.reasoning && limit > 0 ? (draft.reasoning ?? generateReasoning(random(), Math.min(limit, 200))) : undefined;
  const finishReason: FinishReason = limited.cut
    ? 'length'
    : (draft.finishReason ?? (draft.toolCalls.length > 0 ? 'tool_calls' : 'stop'));
  let tokens = limited.tokens;
  for (const call of draft.toolCalls) tokens += countTokens(call.name) + countTokens(call.input ?? argumentsText(call));
  const choice: ReplyChoice = {
    text: limited.text,
    reasoning,
    toolCalls: draft.toolCalls,
    images: [],
    finishReason,
    stopSequence: limited.cut ? undefined : stopped.stop,
    // A fixture's own pieces hold while the text is sent whole; a stop sequence or a limit cuts anew.
    textChunks: !request.stream ? [] : draft.chunks && limited.text === draft.text ? [...draft.chunks] : chunkText(limited.text, chunkBy),
    reasoningChunks: request.stream && reasoning ? chunkText(reasoning, chunkBy) : [],
  };
  return { choice, tokens };
}

export function* replySteps(request: ChatRequest, selection: Selection<ChatFixture> | undefined, context: ReplyContext): Steps<Reply> {
  const limit = request.maxOutputTokens ?? context.outputLimit;
  let key: string | undefined;
  const choices: ReplyChoice[] = [];
  let outputTokens = 0;
  let reasoningTokens = 0;
  let applied = false;
  for (let index = 0; index < Math.max(1, request.choices); index++) {
    // Seeding digests the whole request, which a fixture hit without faker templates or generated
    // reasoning never needs: it happens on first use. A fixture's first draw seeds faker, as it
    // always has, so replies stay the same bytes.
    let random: Random | undefined;
    let fakerSeed = 0;
    const seeded = (): Random => {
      if (!random) {
        random = seededRandom(context.seed, (key ??= contentKey(request)), index);
        if (selection) fakerSeed = random.int(0, 2 ** 31 - 1);
      }
      return random;
    };
    const seedOfFaker = (): number => {
      seeded();
      return fakerSeed;
    };
    const callId = `${context.id}${index}`;
    const plain = selection
      ? fixtureDraft(request, selection, new FixtureScope(request, selection, seedOfFaker), callId)
      : generatedDraft(request, seeded(), limit, callId);
    const faulted = context.fault && misbehave(plain, { fault: context.fault, request, random: seeded(), callId, limit });
    if (faulted) applied = true;
    const draft = faulted ?? plain;
    const { choice, tokens } = yield* finishSteps(draft, request, limit, selection?.fixture.stream?.chunkBy ?? context.chunkBy, seeded);
    outputTokens += tokens;
    if (choice.reasoning) reasoningTokens += countTokens(choice.reasoning);
    choices.push(choice);
  }
  const override = selection?.fixture.usage;
  const usage: Usage = {
    inputTokens: override?.inputTokens ?? countInputTokens(request),
    outputTokens: override?.outputTokens ?? outputTokens,
    reasoningTokens,
    cachedTokens: 0,
  };
  const reply: Reply = {
    id: context.id,
    model: request.model,
    createdMs: context.createdMs,
    choices,
    usage,
    pacing: context.pacing,
    fixture: selection?.fixture.name,
  };
  // Added after, in this order, only when there is a fault: a literal with spreads is built slowly on every reply.
  const fault = context.fault;
  if (fault) reply.fault = { name: fault.name, applied, ...(fault.on && { on: fault.on }) };
  if (applied && fault?.name === 'content_filter' && fault.on !== 'completion') reply.promptBlocked = true;
  return reply;
}

/**
 * Only templates that name them read the last user message and the faker seed: both on demand.
 * A class, because an object literal with getters costs new closures on every reply.
 */
class FixtureScope implements TemplateScope {
  readonly captures: TemplateScope['captures'];
  readonly model: string;
  readonly style: string;
  readonly body: Record<string, unknown>;

  constructor(
    private readonly request: ChatRequest,
    selection: Selection<ChatFixture>,
    private readonly seedOfFaker: () => number,
  ) {
    this.captures = selection.captures;
    this.model = request.model;
    this.style = request.style;
    this.body = request.body;
  }

  get lastUserMessage(): string {
    const last = this.request.turns.findLast((t) => t.role === 'user');
    return last ? turnText(last) : '';
  }

  get fakerSeed(): number {
    return this.seedOfFaker();
  }
}
