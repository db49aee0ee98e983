// `GET /api/v1/models` in OpenRouter's form: each model under its vendor-prefixed id with its
// context length, its architecture, and its prices as decimal strings in dollars per token, taken
// from the catalog's prices per million tokens.
import type { ModelEntry } from '../../config/types.js';

/** The kinds OpenRouter's list holds: models that answer chat and completions. */
const LISTED: ReadonlyArray<ModelEntry['kind']> = ['chat', 'completion'];

const TOKENIZERS: Readonly<Record<string, string>> = { openai: 'GPT', anthropic: 'Claude', google: 'Gemini' };
const VENDOR_NAMES: Readonly<Record<string, string>> = { openai: 'OpenAI', anthropic: 'Anthropic', google: 'Google' };

const PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'tools', 'tool_choice', 'response_format', 'structured_outputs'];
const REASONING_PARAMETERS = ['reasoning', 'include_reasoning'];

/** Anthropic's versions are dotted in OpenRouter's ids (`anthropic/claude-sonnet-4.6`); the rest keep the catalog's. */
export function openrouterId(model: ModelEntry): string {
  const id = model.ownedBy === 'anthropic' ? model.id.replace(/-(\d+)-(\d+)$/, '-$1.$2') : model.id;
  return `${model.ownedBy}/${id}`;
}

/** Dollars per token as OpenRouter writes them: a plain decimal string, never an exponent. */
function perToken(perMillion: number | undefined): string {
  if (!perMillion) return '0';
  return (perMillion / 1_000_000).toFixed(12).replace(/0+$/, '').replace(/\.$/, '');
}

function openrouterModel(model: ModelEntry) {
  const pricing = model.pricing ?? {};
  const chat = model.kind === 'chat';
  const inputs = chat ? ['text', 'image', 'file'] : ['text'];
  return {
    id: openrouterId(model),
    canonical_slug: openrouterId(model),
    hugging_face_id: null,
    name: `${VENDOR_NAMES[model.ownedBy] ?? model.ownedBy}: ${model.displayName}`,
    created: model.created,
    description: model.description,
    context_length: model.inputTokenLimit,
    architecture: {
      modality: `${inputs.filter((input) => input !== 'file').join('+')}->text`,
      input_modalities: inputs,
      output_modalities: ['text'],
      tokenizer: TOKENIZERS[model.ownedBy] ?? 'Other',
      instruct_type: null,
    },
    pricing: {
      prompt: perToken(pricing.input),
      completion: perToken(pricing.output),
      request: '0',
      image: '0',
      web_search: '0',
      internal_reasoning: '0',
      ...(pricing.cached_input !== undefined && { input_cache_read: perToken(pricing.cached_input) }),
    },
    top_provider: { context_length: model.inputTokenLimit, max_completion_tokens: model.outputTokenLimit, is_moderated: model.ownedBy === 'openai' },
    per_request_limits: null,
    supported_parameters: model.reasoning ? [...PARAMETERS, ...REASONING_PARAMETERS] : PARAMETERS,
  };
}

export function openrouterList(models: readonly ModelEntry[]) {
  return { data: models.filter((model) => LISTED.includes(model.kind)).map(openrouterModel) };
}
