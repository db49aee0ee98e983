// Chat in any style, one operation: decode, check the model, take the scenario step, decide the
// reply once (fixture or generator), encode it whole or as events.
import { sep } from 'node:path';
import { failure, MockError } from '../conversation/errors.js';
import { chained, firstMatch, nearestMiss, selectFixture, type ChatFixture, type Selection } from '../conversation/fixture.js';
import type { Plan } from '../conversation/plan.js';
import { countInputTokens } from '../conversation/input-tokens.js';
import { buildReply } from '../conversation/reply.js';
import { chatSubject, type MatchSubject } from '../conversation/subject.js';
import type { ChatRequest, Reply } from '../conversation/types.js';
import type { ModelEntry } from '../config/types.js';
import { imageOutputOf, withImages, type ImageOutput } from '../media/image-output.js';
import { pictureSeed } from '../media/images.js';
import { pictures } from '../media/pictures.js';
import { toFault } from '../scenarios/apply.js';
import { stepError } from '../scenarios/outcome.js';
import { storedConversation } from '../state/session.js';
import type { ChatStyle, StyleInput } from '../styles/style.js';
import { json, newNotes, settle, type Exchange, type Notes, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { chunkByFor, pacingFor } from './pacing.js';
import { CHAT_STYLE_MODELS, nextId, requireModel, styleInput } from './request.js';
import { scenarioStep } from './scenario.js';
import { chatRecorder } from './upstream/record-chat.js';
import { relay } from './upstream/relay.js';
import { keepResponse, shownResponse } from './stored-responses.js';

export function select(mock: Mock, exchange: Exchange, subject: MatchSubject, notes: Notes): Selection<ChatFixture> | undefined {
  const config = mock.store.current;
  const fixtures = exchange.session.fixtures;
  const selection = selectFixture(fixtures, config.chat, subject);
  notes.fixture = selection?.fixture.name ?? null;
  const recordings = mock.options.upstream?.record;
  notes.recordedFixture = recordings !== undefined && selection !== undefined && selection.fixture.file.startsWith(`${recordings}${sep}`);
  if (selection) return selection;
  const miss = nearestMiss(chained(fixtures, config.chat), subject) ?? null;
  notes.nearMiss = miss;
  if (mock.options.strict && !mock.options.upstream) {
    const why = miss ? ` The closest is "${miss.fixture}" (${miss.file}), which failed on: ${miss.failed.join(', ')}.` : '';
    throw failure('fixture_not_found', `No fixture matches this request.${why}`);
  }
  return undefined;
}

export function reply(mock: Mock, exchange: Exchange, request: ChatRequest, model: ModelEntry, selection: Selection<ChatFixture> | undefined): Reply {
  const stream = selection?.fixture.stream;
  return buildReply(request, selection, {
    id: nextId(mock, exchange.session),
    createdMs: mock.clock.now(),
    seed: mock.options.seed,
    chunkBy: chunkByFor(stream),
    pacing: pacingFor(request.headers['x-mock-latency'], stream, mock.options.latency),
    outputLimit: model.outputTokenLimit,
  });
}

/** The pictures of a reply to a request that asked for image output; `images:` fixtures apply as on /v1/images. */
function illustrated(mock: Mock, output: ImageOutput, subject: MatchSubject, notes: Notes, chatFixture: ChatFixture | undefined, plain: Reply): Reply {
  const config = mock.store.current;
  const fixture = firstMatch(config.images, subject)?.fixture;
  notes.fixture ??= fixture?.name ?? null;
  const seedOf = (index: number) => pictureSeed(mock.options.seed, subject.lastUser, index);
  const made = pictures(fixture, plain.choices.length, output.size, seedOf);
  return withImages(output, made, chatFixture?.chatImageOutput, plain);
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

export function planReply(style: ChatStyle, reply: Reply, request: ChatRequest, input: StyleInput, requestId: string): Plan {
  if (!request.stream) return { kind: 'json', status: 200, headers: {}, body: style.encode(reply, request) };
  return {
    kind: 'stream',
    status: 200,
    headers: {},
    framing: style.framing?.(input) ?? 'sse',
    events: style.events(reply, request),
    pacing: reply.pacing,
    interrupted: (cutAt) => style.streamError(new MockError('overloaded', 'The mock is shutting down; retry once it is back.'), { reply, request, cutAt, requestId }),
  };
}

export function chat(style: ChatStyle) {
  return (mock: Mock, exchange: Exchange): Promise<Outcome> =>
    settle(newNotes(style.name), async (notes, headers) => {
      const input = styleInput(exchange);
      const session = exchange.session;
      const request = style.decode(input, { storedTurns: (id) => storedConversation(session, id) });
      notes.model = request.model;
      const subject = chatSubject(request);
      if (mock.options.upstream && !mock.store.current.modelById.has(request.model)) {
        // A model this mock does not list may be the upstream's.
        const step = scenarioStep(mock, exchange, style.envelope, subject, notes, headers, () => countInputTokens(request));
        return step.error ? { error: step.error, waitMs: step.waitMs } : relay(mock, exchange, notes, chatRecorder(style, request));
      }
      const model = requireModel(mock, request.model, CHAT_STYLE_MODELS);
      const output = imageOutputOf(request, model, exchange.caller.group, mock.store.current.chatCompletionsOnlyGroups);
      const decision = scenarioStep(mock, exchange, style.envelope, subject, notes, headers, () => countInputTokens(request));
      if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
      const selection = select(mock, exchange, subject, notes);
      if (!selection && mock.options.upstream) return relay(mock, exchange, notes, chatRecorder(style, request));
      const refusal = selection?.fixture.error;
      if (refusal) return { error: stepError(refusal.kind, refusal) };
      const plain = reply(mock, exchange, request, model, selection);
      const answer = output ? illustrated(mock, output, subject, notes, selection?.fixture, plain) : plain;
      const fault = toFault(decision.fault, (error, cutAt) =>
        style.streamError(error, { reply: answer, request, cutAt, requestId: exchange.requestId }),
      );
      const kept = style.store?.(answer, request);
      if (kept) {
        const stored = keepResponse(session, kept, mock.clock.now(), storedBytes(exchange, answer));
        if (kept.background) return { ...json(shownResponse(stored, mock.clock.now())), fault };
      }
      return { plan: planReply(style, answer, request, input, exchange.requestId), fault };
    });
}
