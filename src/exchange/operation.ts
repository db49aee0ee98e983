// The one template every model operation runs: read the request, ask what it is about, take the
// scenario step, find the fixture, apply the unmatched-request policy, build the answer, and put
// the scenario's fault on it. Each operation fills in its steps and reports what it found; who
// answers (the upstream, a refusal, this mock), the order and the notes are decided here, once,
// and returned as values. A MockError thrown by any step becomes the outcome's error, with what
// was noted until then.
import { failure, MockError } from '../conversation/errors.js';
import { notApplicable, type SemanticFault } from '../conversation/faults.js';
import type { Plan } from '../conversation/plan.js';
import type { MatchSubject } from '../conversation/subject.js';
import { chargeAnswer } from '../scenarios/apply.js';
import { newNotes, type Answer, type Door, type Exchange, type Notes, type Operation, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { scenarioStep } from './scenario.js';
import type { Meter, Recorder } from './upstream/relay.js';
import { relay } from './upstream/relay.js';
import { compareWhenRelayed } from './upstream/drift-live.js';
import { afterPoll } from '../state/event-loop.js';
import { isLarge } from '../state/large-bodies.js';
import { LateStream } from './late-stream.js';

/** What a request is about, once read and checked. */
export interface Asked {
  model: string | null;
  /** What scenarios and fixtures match on. */
  subject: MatchSubject;
  /** Prices the request for a scenario's token limit (else the subject's prompt is counted). */
  inputTokens?: () => number;
  /**
   * What the request names that this mock does not hold (a model or a task), as the error the door
   * answers it with: the upstream may hold it, so the unmatched-request policy decides.
   */
  unknown?: MockError;
  /** What only this mock can answer (what derives from its own tasks): it is never relayed. */
  mockOnly?: boolean;
}

export interface Found<F> {
  /** What finding made, handed to `build`: the fixture, or what each input found (its fixture or its own vector). */
  found?: F;
  /** Whether fixtures answer the whole request (else the unmatched-request policy decides); left out, whether anything was found. */
  answered?: boolean;
  /** The error a fixture answers with (its `error:`). */
  error?: MockError;
  /** The fixture's name, the closest miss, whether it was recorded. */
  notes?: Partial<Notes>;
}

export interface Built {
  plan: Plan;
  notes?: Partial<Notes>;
}

export interface ModelOperation<R extends { model: string | null }, A extends Asked, F> {
  /**
   * Decodes the request: a field refused here is answered before any scenario step. Asynchronous
   * where reading is long work done in slices (counting thousands of inputs' tokens).
   */
  read(mock: Mock, exchange: Exchange): R | Promise<R>;
  /** Checks what was read (its model, the caller's group) and says what the request is about. */
  ask(mock: Mock, exchange: Exchange, read: R, door: Door): A;
  /** The fixture that answers, for requests that fixtures answer; not asked for what this mock does not hold. */
  find?(mock: Mock, exchange: Exchange, asked: A): Found<F>;
  /** Whether `--strict` refuses a request that no fixture answers. */
  strict?: boolean;
  /** What `--record` keeps of the upstream's answer, when the request is relayed. */
  recorder?(mock: Mock, exchange: Exchange, asked: A): Recorder | undefined;
  /** What a relayed answer used, for the journal's usage and cost. */
  meter?(asked: A): Meter;
  /** The answer is read from what the mock or the session holds (the catalog, a task): `x-mock-source: state`. */
  held?: boolean;
  /**
   * The answer: the fixture's, or made up, from what `find` found; carrying the scenario's
   * semantic fault where it applies, which its notes' `fault` then names.
   */
  build(mock: Mock, exchange: Exchange, asked: A, found: F | undefined, misbehave?: SemanticFault): Built | Promise<Built>;
}

/**
 * The unmatched-request policy, in one place: a request no fixture answers goes to the upstream
 * when it may spend one; else what this mock does not hold is refused with the door's error, and
 * the rest is refused under `--strict` where fixtures are expected, and otherwise made up. What
 * only this mock can answer is always made up.
 */
export function unmatched(mock: Mock, exchange: Exchange, asked: Asked, strict: boolean): 'relay' | 'refuse' | 'build' {
  if (asked.mockOnly) return 'build';
  // The request's own right, not the mock's option: a page that may not spend it is answered as without one.
  if (exchange.upstream) return 'relay';
  if (asked.unknown) return 'refuse';
  return strict && mock.options.strict ? 'refuse' : 'build';
}

function refusal(notes: Notes): MockError {
  const miss = notes.nearMiss;
  const why = miss ? ` The closest is "${miss.fixture}" (${miss.file}), which failed on: ${miss.failed.join(', ')}.` : '';
  return failure('fixture_not_found', `No fixture matches this request.${why}`);
}

/** A MockError thrown by a step becomes the outcome's error; a refused fixture file also shows in health. */
export function caught(mock: Mock, error: unknown): MockError {
  if (!(error instanceof MockError)) throw error;
  if (error.options.code === 'file_refused') mock.store.noteRefusedFile(error.message);
  return error;
}

export function modelOperation<R extends { model: string | null }, A extends Asked, F>(steps: ModelOperation<R, A, F>): Operation {
  const strict = steps.strict ?? false;
  return async (mock, exchange, door): Promise<Outcome> => {
    const envelope = door.envelope(exchange);
    // This request's own notes, filled in step by step: created here, so no one else holds them.
    const notes = newNotes(door.style);
    notes.held = steps.held ?? false;
    let headers: Record<string, string> = {};
    // Each answer is a literal made below for this call alone: completed in place, not copied, and
    // with no object made to assign from.
    const outcome = (answer: Answer, late?: Promise<Partial<Notes>>): Outcome => {
      const done = answer as Outcome;
      done.notes = notes;
      done.headers = headers;
      done.envelope = envelope;
      if (late) done.late = late;
      return done;
    };
    try {
      // A body of megabytes took tens of milliseconds to parse in the turn it came in (JSON.parse
      // of 8 MB), and reading it as the style's request as many more: the two are not one turn.
      if (isLarge(exchange.bodySize)) await afterPoll();
      // Most reads are done at once: awaited only when they are not, a turn of microtasks less a request.
      const reading = steps.read(mock, exchange);
      const read = reading instanceof Promise ? await reading : reading;
      notes.model = read.model;
      const asked = steps.ask(mock, exchange, read, door);
      notes.model = asked.model;
      exchange.started?.(asked.model, asked.subject.lastUser);
      const policy = unmatched(mock, exchange, asked, strict);
      // Answered as without an upstream: before any scenario step counts it.
      if (asked.unknown && policy === 'refuse') return outcome({ error: asked.unknown });
      notes.subject = asked.subject;
      const step = scenarioStep(mock, exchange, envelope, asked.subject, asked.inputTokens);
      Object.assign(notes, step.notes);
      headers = step.headers;
      const { decision } = step;
      // A semantic fault acts only where the answer built says so (its notes' `fault`).
      if (decision.misbehave) notes.fault = notApplicable(decision.misbehave.name);
      if (decision.error) return outcome({ error: decision.error, waitMs: decision.waitMs });
      const found: Found<F> = asked.unknown ? {} : (steps.find?.(mock, exchange, asked) ?? {});
      if (found.notes) Object.assign(notes, found.notes);
      if (!(found.answered ?? found.found !== undefined)) {
        if (policy === 'refuse') return outcome({ error: refusal(notes) });
        if (policy === 'relay') {
          const relayed = await relay(mock, exchange, steps.recorder?.(mock, exchange, asked), steps.meter?.(asked));
          Object.assign(notes, relayed.notes);
          compareWhenRelayed(mock, exchange, door.style, relayed, async () => {
            // The mock's own answer, as the policy gives it with no upstream set: built, or none.
            const alone = { ...exchange, upstream: undefined };
            if (unmatched(mock, alone, asked, strict) !== 'build') return undefined;
            return (await steps.build(mock, exchange, asked, found.found)).plan;
          });
          return outcome({ plan: relayed.plan }, relayed.late);
        }
      }
      if (found.error) return outcome({ error: found.error });
      const built = await steps.build(mock, exchange, asked, found.found, decision.misbehave);
      if (built.notes) Object.assign(notes, built.notes);
      if (built.plan instanceof LateStream) {
        built.plan.completes(notes);
        // A limit charged with the answer's output needs the reply before the next request's step;
        // a fault may end the request before its first event (a reset, a client gone during a
        // delay), and the journal then still has the reply's usage.
        if (decision.window || decision.fault) await built.plan.make();
      }
      // A limit's output tokens are charged once the answer is known.
      const output = notes.metered?.tokens?.output_tokens;
      if (decision.window && output !== undefined) chargeAnswer(exchange.session, decision.window, output, mock.clock.now());
      return outcome({ plan: built.plan, fault: decision.fault });
    } catch (error) {
      return outcome({ error: caught(mock, error) });
    }
  };
}

/**
 * An operation on what the session already holds (a stored response, a picture's URL, a
 * character): no scenario step, no fixture, no upstream; only its answer and the model it names.
 */
export function plainOperation(answer: (mock: Mock, exchange: Exchange) => Promise<Built> | Built): Operation {
  return async (mock, exchange, door): Promise<Outcome> => {
    const notes = { ...newNotes(door.style), held: true };
    const envelope = door.envelope(exchange);
    try {
      const built = await answer(mock, exchange);
      return { plan: built.plan, notes: { ...notes, ...built.notes }, headers: {}, envelope };
    } catch (error) {
      return { error: caught(mock, error), notes, headers: {}, envelope };
    }
  };
}
