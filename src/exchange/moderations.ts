// `POST /v1/moderations`: one verdict per input, nothing flagged unless a `moderations:` fixture
// matching the input flags its categories.
import { firstMatch } from '../conversation/fixture.js';
import { moderate } from '../conversation/moderation.js';
import { promptSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import { toFault } from '../scenarios/apply.js';
import { decodeModeration, encodeModeration } from '../styles/moderations/index.js';
import { openaiEnvelope, openaiStreamError } from '../styles/openai-envelope.js';
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { mediaModel, nextId } from './request.js';
import { scenarioStep } from './scenario.js';
import { relay } from './upstream/relay.js';

/** What the vendor moderates with when no model is named. */
const DEFAULT_MODEL = 'omni-moderation-latest';

export function moderations(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return settle(newNotes('moderations'), async (notes, headers) => {
    const request = decodeModeration(exchange.body);
    const config = mock.store.current;
    const asked = request.model ?? (config.modelById.get(DEFAULT_MODEL)?.kind === 'moderation' ? DEFAULT_MODEL : undefined);
    const upstreamModel = mock.options.upstream && asked !== undefined && !config.modelById.has(asked);
    const model = upstreamModel ? undefined : mediaModel(mock, asked, 'moderation');
    const id = model?.id ?? asked ?? '';
    notes.model = id;
    const texts = request.inputs.map((input) => input.text);
    const subject = promptSubject(id, texts.join('\n'), exchange.headers);
    const decision = scenarioStep(mock, exchange, openaiEnvelope, subject, notes, headers, () => texts.reduce((sum, text) => sum + countTokens(text), 0));
    if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
    const hits = request.inputs.map((input) => firstMatch(config.moderations, promptSubject(id, input.text, exchange.headers))?.fixture);
    notes.fixture = hits.find((hit) => hit !== undefined)?.name ?? null;
    if (!model || (mock.options.upstream && hits.some((hit) => hit === undefined))) {
      notes.fixture = null;
      return relay(mock, exchange, notes);
    }
    const verdicts = request.inputs.map((input, index) => moderate(input, new Set(hits[index]?.spec.flag ?? []), mock.options.seed));
    return { ...json(encodeModeration(nextId(mock, exchange.session), model.id, verdicts)), fault: toFault(decision.fault, openaiStreamError) };
  });
}
