// `POST /v1/moderations`: one verdict per input, nothing flagged unless a `moderations:` fixture
// matching the input flags its categories.
import { firstMatch } from '../conversation/fixture.js';
import { moderate } from '../conversation/moderation.js';
import { promptSubject } from '../conversation/subject.js';
import { countAllTokens } from '../conversation/tokens.js';
import type { Compiled, ModelEntry } from '../config/types.js';
import type { ModerationFixtureSpec } from '../config/schema.js';
import { decodeModeration, encodeModeration, type ModerationRequest } from '../styles/moderations/index.js';
import { json } from './exchange.js';
import { modelOperation, type Asked } from './operation.js';
import { mediaModel, nextId, unlisted } from './request.js';

/** What the vendor moderates with when no model is named. */
const DEFAULT_MODEL = 'omni-moderation-latest';

type Hits = Array<Compiled<ModerationFixtureSpec> | undefined>;

interface AskedModeration extends Asked {
  request: ModerationRequest;
  model: string;
  entry: ModelEntry | undefined;
  texts: string[];
}

export const moderations = modelOperation<{ model: string | null; request: ModerationRequest }, AskedModeration, Hits>({
  read: (_mock, exchange) => {
    const request = decodeModeration(exchange.body);
    return { request, model: request.model ?? null };
  },
  ask: (mock, exchange, { request }) => {
    const config = mock.store.current;
    const named = request.model ?? (config.modelById.get(DEFAULT_MODEL)?.kind === 'moderation' ? DEFAULT_MODEL : undefined);
    const unknown = unlisted(mock, named, ['moderation']);
    const entry = unknown ? undefined : mediaModel(mock, named, 'moderation');
    const model = entry?.id ?? named ?? '';
    const texts = request.inputs.map((input) => input.text);
    const inputTokens = () => countAllTokens(texts);
    const asked = { request, entry, texts, model, inputTokens, subject: promptSubject(model, texts.join('\n'), exchange.headers) };
    return unknown ? { ...asked, unknown } : asked;
  },
  /** The fixture of each input, if one matches. */
  find: (mock, exchange, { model, texts }) => {
    const hits = texts.map((text) => firstMatch(mock.store.current.moderations, promptSubject(model, text, exchange.headers))?.fixture);
    const answered = hits.every((hit) => hit !== undefined);
    return { found: hits, answered, ...(answered && { notes: { fixture: hits[0]!.name } }) };
  },
  build: (mock, exchange, { request, entry }, found) => {
    const hits = found!;
    const verdicts = request.inputs.map((input, index) => moderate(input, new Set(hits[index]?.spec.flag ?? []), mock.options.seed));
    const body = encodeModeration(nextId(mock, exchange.session), entry!.id, verdicts);
    return { ...json(body), notes: { fixture: hits.find((hit) => hit !== undefined)?.name ?? null } };
  },
});
