// Chat in any style, one operation: decode, check the model, take the scenario step, decide the
// reply once (fixture or generator), encode it whole or as events.
import { sep } from 'node:path';
import { chained, firstMatch, firstOfShape, nearestMiss, needlesOf, selectFixture, type ChatFixture, type Selection } from '../conversation/fixture.js';
import type { SemanticFault } from '../conversation/faults.js';
import type { Plan, StreamEvent, StreamPart } from '../conversation/plan.js';
import type { MockError } from '../conversation/errors.js';
import { contentKeySteps } from '../conversation/content-key.js';
import { countInputTokens, inputTokenSteps } from '../conversation/input-tokens.js';
import { finished, oneAfterAnother, type Steps } from '../conversation/steps.js';
import { mayRefuse, replySteps, type ReplyContext } from '../conversation/reply.js';
import { chatSubject, lastUserLowerSteps, type MatchSubject } from '../conversation/subject.js';
import type { ChatRequest, Pacing, Reply } from '../conversation/types.js';
import { costUsd, entryUsage } from '../conversation/usage.js';
import type { ModelEntry } from '../config/types.js';
import { imageOutputOf, withImages, type ImageOutput } from '../media/image-output.js';
import { pictureSeed } from '../media/images.js';
import { pictures } from '../media/pictures.js';
import { withSpeech } from '../media/speech-output.js';
import { stepError } from '../scenarios/outcome.js';
import { inSlices } from '../state/event-loop.js';
import { isLarge } from '../state/large-bodies.js';
import { storedConversation } from '../state/session.js';
import { spokenTokens } from '../conversation/audio-tokens.js';
import { GATEWAY_IMAGES } from '../styles/registry.js';
import type { ChatStyle } from '../styles/style.js';
import { templatedAnswer } from '../styles/answer-template.js';
import { json, type Exchange, type Notes, type Operation } from './exchange.js';
import type { Mock } from './mock.js';
import { chunkByFor, pacingFor } from './pacing.js';
import { catalogued, CHAT_STYLE_MODELS, nextId, requireModel, styleInput, unlisted } from './request.js';
import { modelOperation, type Asked, type Found } from './operation.js';
import { askedAgain } from './fixture-of.js';
import { chatRecorder } from './upstream/record-chat.js';
import { keepResponse, shownResponse } from './stored-responses.js';
import { LateStream, type MadeStream } from './late-stream.js';

export function select(mock: Mock, exchange: Exchange, subject: MatchSubject): Found<Selection<ChatFixture>> {
  const config = mock.store.current;
  const fixtures = exchange.session.fixtures;
  const exact = selectFixture(fixtures, config.chat, subject);
  // A recorded turn of the same shape answers only when no fixture matches as written.
  const selection = exact ?? firstOfShape(chained(fixtures, config.chat), subject);
  if (selection) {
    const recordings = mock.options.upstream?.record;
    const recordedFixture = recordings !== undefined && selection.fixture.file.startsWith(`${recordings}${sep}`);
    const refusal = selection.fixture.error;
    const found: Found<Selection<ChatFixture>> = { found: selection, notes: { fixture: selection.fixture.name, recordedFixture, byShape: !exact } };
    // Set only for a refusal: a literal with a spread is built a key at a time, on every hit.
    if (refusal) found.error = stepError(refusal.kind, refusal);
    return found;
  }
  return { notes: { nearMiss: nearestMiss(chained(fixtures, config.chat), subject) ?? null } };
}

/** What a reply is made with besides the request: its id, time and pacing taken when it is decided, before any headers. */
function replyContext(mock: Mock, exchange: Exchange, request: ChatRequest, model: ModelEntry, selection: Selection<ChatFixture> | undefined, fault?: SemanticFault): ReplyContext {
  const stream = selection?.fixture.stream;
  const id = nextId(mock, exchange.session);
  return {
    id,
    createdMs: mock.clock.now(),
    seed: mock.options.seed,
    chunkBy: chunkByFor(stream),
    pacing: pacingFor(request.headers['x-mock-latency'], stream, mock.options.latency, model.latency, [mock.options.seed, id]),
    outputLimit: model.outputTokenLimit,
    fault,
  };
}

function* chatReplySteps(request: ChatRequest, model: ModelEntry, selection: Selection<ChatFixture> | undefined, context: ReplyContext): Steps<Reply> {
  const made = yield* replySteps(request, selection, context);
  // The reply was made for this call alone: priced in place, where a copy took its ten fields again.
  made.costUsd = costUsd(model.pricing, { tokens: entryUsage(made.usage) }) ?? 0;
  return made;
}

export function reply(mock: Mock, exchange: Exchange, request: ChatRequest, model: ModelEntry, selection: Selection<ChatFixture> | undefined, fault?: SemanticFault): Reply {
  return finished(chatReplySteps(request, model, selection, replyContext(mock, exchange, request, model, selection, fault)));
}

/** The pictures of a reply to a request that asked for image output; `images:` fixtures apply as on /v1/images. */
async function illustrated(mock: Mock, output: ImageOutput, subject: MatchSubject, chatFixture: ChatFixture | undefined, plain: Reply): Promise<{ reply: Reply; fixture: string | null }> {
  const config = mock.store.current;
  const fixture = firstMatch(config.images, subject)?.fixture;
  const seedOf = (index: number) => pictureSeed(mock.options.seed, subject.lastUser, index);
  const made = await pictures(fixture, plain.choices.length, output.size, seedOf);
  return { reply: withImages(output, made, chatFixture?.chatImageOutput, plain), fixture: chatFixture?.name ?? fixture?.name ?? null };
}

/**
 * What a stored response holds besides its input (its strings taken from the parsed body, so
 * about the body's size) and its output (about four characters a token, as a turn and in the
 * body): the response object's fields, the input items, the turn objects, what a later turn goes on
 * from (a SHA-1 state and a token counter, every few turns), and their slots in the session's maps. Measured
 * at about 2.7 KB besides input and output on a chain of short turns (heap snapshots of 300 and 900).
 */
const STORED_BYTES = 3072;

function storedBytes(exchange: Exchange, reply: Reply): number {
  const outputTokens = reply.usage.outputTokens + reply.usage.reasoningTokens;
  return STORED_BYTES + exchange.bodySize + 8 * outputTokens;
}

/**
 * A fixture's whole answer written from its template: the answer's object is made only when
 * something reads it (a batch line, a realtime turn). A class, as an object literal with a getter
 * costs a closure and a slow literal on every answer.
 */
class TemplatedPlan {
  readonly kind = 'json';
  readonly status = 200;
  private made: unknown;

  constructor(
    readonly headers: Record<string, string>,
    readonly text: string,
    private readonly style: ChatStyle,
    private readonly reply: Reply,
    private readonly request: ChatRequest,
  ) {}

  get body(): unknown {
    return (this.made ??= this.style.encode(this.reply, this.request));
  }
}

function wholePlan(style: ChatStyle, reply: Reply, request: ChatRequest, headers: Record<string, string>): Plan {
  const text = style.answer && templatedAnswer(style.name, style.answer, reply, request);
  if (text === undefined) return { kind: 'json', status: 200, headers, body: style.encode(reply, request) };
  return new TemplatedPlan(headers, text, style, reply, request);
}

/**
 * A stream's plan, its events made when first read: the writer reads them after the headers are
 * out (server/writer.ts). A class, for TemplatedPlan's reason: a literal's two getters were new
 * closures and a slow literal on every stream.
 */
class StreamedPlan {
  readonly kind = 'stream';
  readonly status = 200;
  readonly pacing: Pacing;
  private madeEvents: StreamEvent[] | undefined;
  private madeParts: StreamPart[] | undefined;

  constructor(
    readonly headers: Record<string, string>,
    private readonly style: ChatStyle,
    private readonly reply: Reply,
    private readonly request: ChatRequest,
    private readonly requestId: string,
  ) {
    this.pacing = reply.pacing;
  }

  get events(): StreamEvent[] {
    return (this.madeEvents ??= this.style.events(this.reply, this.request));
  }

  get parts(): StreamPart[] | undefined {
    return this.style.parts && (this.madeParts ??= this.style.parts(this.reply, this.request));
  }

  /** A property, not a method: the plan's readers may take it alone (a realtime socket's play). */
  readonly streamError = (error: MockError, cutAt: number): StreamEvent[] =>
    this.style.streamError(error, { reply: this.reply, request: this.request, cutAt, requestId: this.requestId });
}

export function planReply(style: ChatStyle, reply: Reply, request: ChatRequest, requestId: string): Plan {
  const headers = style.headers?.(reply) ?? {};
  if (!request.stream) return wholePlan(style, reply, request, headers);
  return new StreamedPlan(headers, style, reply, request, requestId);
}

/** What the journal notes of a chat reply: its usage, why each choice ended, and a semantic fault that acted. */
function replyNotes(answer: Reply): Partial<Notes> {
  const notes: Partial<Notes> = {
    metered: { tokens: entryUsage(answer.usage, spokenTokens(answer)) },
    finishReasons: answer.choices.map((choice) => choice.finishReason),
  };
  // Set only when it applies (the template assigns these notes over its own): a literal with spreads is built slowly.
  if (answer.fault?.applied) notes.fault = answer.fault.name;
  return notes;
}

/**
 * Whether a stream's reply is made after its headers (exchange/late-stream.ts): a stream with a
 * first pause, whose reply cannot change what goes before the headers. Not when it would: a style
 * that refuses a reply (Azure's filter), sends headers of the reply's own (OpenRouter) or keeps it
 * in the session (responses); a semantic fault; pictures or speech to add; a large request, whose
 * seed is digested in slices first; a generated reply the mock may refuse.
 */
function madeLate(style: ChatStyle, exchange: Exchange, request: ChatRequest, context: ReplyContext, selection: Selection<ChatFixture> | undefined, output: ImageOutput | undefined): boolean {
  return (
    request.stream &&
    context.pacing.firstChunkMs > 0 &&
    !context.fault &&
    !output &&
    !request.audioOutput &&
    !isLarge(exchange.bodySize) &&
    !style.store &&
    !style.refusal &&
    !style.headers &&
    !mayRefuse(request, selection)
  );
}

/** A late stream's reply, its notes and its plan, made after the headers. */
function* lateSteps(style: ChatStyle, exchange: Exchange, request: ChatRequest, model: ModelEntry, selection: Selection<ChatFixture> | undefined, context: ReplyContext): Steps<MadeStream> {
  const answer = yield* chatReplySteps(request, model, selection, context);
  return { plan: new StreamedPlan({}, style, answer, request, exchange.requestId), notes: replyNotes(answer) };
}

interface AskedChat extends Asked {
  request: ChatRequest;
  /** Left out when this mock does not list the model. */
  entry: ModelEntry | undefined;
  output: ImageOutput | undefined;
}

/** Chat in one style: the template's steps for a chat request. */
export function chat(style: ChatStyle): Operation {
  return modelOperation<ChatRequest, AskedChat, Selection<ChatFixture>>({
    read: (mock, exchange) => {
      const request = catalogued(mock, style, style.decode(styleInput(exchange), { storedTurns: (id) => storedConversation(exchange.session, id) }));
      const lowering = lastUserLowerSteps(request, needlesOf(exchange.session.fixtures, mock.store.current.chat));
      // A large request's input tokens are counted here, in slices: 128 KB of new text held the
      // loop for 50 ms in the turn that built the reply.
      const counting = isLarge(exchange.bodySize) ? inputTokenSteps(request) : undefined;
      return lowering || counting ? inSlices(oneAfterAnother(lowering, counting)).then(() => request) : request;
    },
    ask: (mock, exchange, request, door): AskedChat => {
      const kinds = door.modelKinds ?? CHAT_STYLE_MODELS;
      const subject = chatSubject(request);
      const inputTokens = () => countInputTokens(request);
      const missing = unlisted(mock, request.model, kinds);
      const unknown = missing && (style.models?.notFound?.(request.model) ?? missing);
      if (unknown) return { request, model: request.model, subject, inputTokens, entry: undefined, output: undefined, unknown };
      const entry = requireModel(mock, request.model, kinds);
      const output = imageOutputOf(request, entry, GATEWAY_IMAGES, exchange.caller.group, mock.store.current.chatCompletionsOnlyGroups);
      return { request, model: request.model, subject, inputTokens, entry, output };
    },
    find: (mock, exchange, asked) => select(mock, exchange, asked.subject),
    strict: true,
    recorder: (_mock, exchange, asked) => chatRecorder(style, asked.request, askedAgain(exchange.path, exchange.search, exchange.body)),
    meter: () => (answer) => {
      const usage = style.read(answer).usage;
      return usage ? { tokens: { input_tokens: usage.inputTokens, cached_input_tokens: 0, output_tokens: usage.outputTokens, reasoning_tokens: 0 } } : null;
    },
    build: async (mock, exchange, { request, entry, output, subject }, selection, misbehave) => {
      // Megabytes of conversation are digested for the reply's seed in slices, not in the turn that
      // answers; a fixture's reply without a fault seldom draws from the seed (faker templates), so
      // a coding agent's long prompt answered from a fixture is not digested at all.
      if (isLarge(exchange.bodySize) && (!selection || misbehave)) await inSlices(contentKeySteps(request));
      const context = replyContext(mock, exchange, request, entry!, selection, misbehave);
      if (madeLate(style, exchange, request, context, selection, output)) {
        const steps = () => lateSteps(style, exchange, request, entry!, selection, context);
        return { plan: new LateStream(context.pacing, steps, (error) => style.streamError(error)) };
      }
      // In slices: a template's long output is counted a segment a step.
      const plain = await inSlices(chatReplySteps(request, entry!, selection, context));
      const refused = style.refusal?.(plain);
      if (refused) throw refused;
      const illustration = output ? await illustrated(mock, output, subject, selection?.fixture, plain) : undefined;
      const shown = illustration?.reply ?? plain;
      const answer = request.audioOutput ? await withSpeech(shown, request.audioOutput, mock.options.seed) : shown;
      const notes = replyNotes(answer);
      if (illustration) notes.fixture = illustration.fixture;
      const kept = style.store?.(answer, request);
      if (kept) {
        const stored = keepResponse(exchange.session, kept, mock.clock.now(), storedBytes(exchange, answer));
        if (kept.background) return { ...json(shownResponse(stored, mock.clock.now())), notes };
      }
      return { plan: planReply(style, answer, request, exchange.requestId), notes };
    },
  });
}
