// The chat pipeline, the same for every style: decode, check the model, decide the reply once
// (fixture or generator), encode whole or as events, hand the plan to the writer.
import type { Context } from 'koa';
import { MockError } from '../conversation/errors.js';
import { chained, nearestMiss, selectFixture } from '../conversation/fixture.js';
import type { Plan } from '../conversation/plan.js';
import { buildReply, countInputTokens } from '../conversation/reply.js';
import { chatSubject, type MatchSubject } from '../conversation/subject.js';
import type { ChatRequest, Reply } from '../conversation/types.js';
import type { ModelEntry } from '../config/types.js';
import { applyScenario, toFault } from '../scenarios/apply.js';
import { MAX_STORED_RESPONSES, putBounded } from '../state/session.js';
import type { ChatStyle, StyleInput } from '../styles/style.js';
import type { Mock, MockState } from './context.js';
import { CHAT_STYLE_MODELS, imageOutputOf, withImages } from './image-output.js';
import { chunkByFor, pacingFor } from './pacing.js';
import { nextId, requireModel, styleInput } from './request.js';
import { write } from './writer.js';

function decide(mock: Mock, state: MockState, request: ChatRequest, model: ModelEntry, subject: MatchSubject): Reply {
  const config = mock.store.current;
  const selection = selectFixture(state.session.fixtures, config.chat, subject);
  if (!selection) {
    const miss = nearestMiss(chained(state.session.fixtures, config.chat), subject) ?? null;
    state.notes.nearMiss = miss;
    if (mock.options.strict) {
      const why = miss ? ` The closest is "${miss.fixture}" (${miss.file}), which failed on: ${miss.failed.join(', ')}.` : '';
      throw new MockError('not_found', `No fixture matches this request.${why}`, { code: 'fixture_not_found' });
    }
  }
  state.notes.fixture = selection?.fixture.name ?? null;
  const stream = selection?.fixture.stream;
  return buildReply(request, selection, {
    id: nextId(mock, state.session),
    createdMs: mock.clock.now(),
    seed: mock.options.seed,
    chunkBy: chunkByFor(stream),
    pacing: pacingFor(request.headers['x-mock-latency'], stream, mock.options.latency),
    outputLimit: model.outputTokenLimit,
  });
}

export function planReply(style: ChatStyle, reply: Reply, request: ChatRequest, input: StyleInput): Plan {
  if (!request.stream) return { kind: 'json', status: 200, headers: {}, body: style.encode(reply, request) };
  return {
    kind: 'stream',
    status: 200,
    headers: {},
    framing: style.framing?.(input) ?? 'sse',
    events: style.events(reply, request),
    pacing: reply.pacing,
  };
}

export function chatHandler(mock: Mock, style: ChatStyle) {
  return async (ctx: Context): Promise<void> => {
    const state = ctx.state as MockState;
    const input = styleInput(ctx);
    const session = state.session;
    const request = style.decode(input, { storedTurns: (id) => session.responses.get(id)?.turns });
    state.notes.model = request.model;
    const model = requireModel(mock, request.model, CHAT_STYLE_MODELS);
    const imageOutput = imageOutputOf(mock, state, request, model);
    const subject = chatSubject(request);
    const outcome = await applyScenario(mock, ctx, subject, () => countInputTokens(request));
    const reply = withImages(mock, state, imageOutput, subject, decide(mock, state, request, model, subject));
    const kept = style.store?.(reply, request);
    if (kept) putBounded(session.responses, kept.id, { turns: kept.turns, body: kept.body }, MAX_STORED_RESPONSES);
    const fault = toFault(outcome.fault, (error) => style.streamError(error, { reply, request }));
    await write(ctx, planReply(style, reply, request, input), fault);
  };
}
