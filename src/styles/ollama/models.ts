// Ollama's model doors: `/api/tags` lists the catalog as pulled models, `/api/show` describes one,
// `/api/version` says which server this is. Digests and sizes derive from the id, so they hold
// from run to run.
import type { ModelEntry } from '../../config/types.js';
import { hash } from 'node:crypto';
import { hashHex } from '../../conversation/random.js';

/** The Ollama release whose wire this style speaks. */
export const OLLAMA_VERSION = '0.12.6';

function details(model: ModelEntry): Record<string, unknown> {
  return { parent_model: '', format: 'gguf', family: model.ownedBy, families: [model.ownedBy], parameter_size: '8B', quantization_level: 'Q4_K_M' };
}

function modifiedAt(model: ModelEntry): string {
  return new Date(model.created * 1000).toISOString();
}

export function ollamaTags(models: readonly ModelEntry[]): unknown {
  return {
    models: models
      .filter((model) => model.kind === 'chat' || model.kind === 'embedding')
      .map((model) => ({
        name: model.id,
        model: model.id,
        modified_at: modifiedAt(model),
        size: 4_000_000_000 + Number.parseInt(hashHex(model.id, 6), 16),
        digest: hash('sha256', `ollama|${model.id}`, 'hex'),
        details: details(model),
      })),
  };
}

export function ollamaShow(model: ModelEntry): unknown {
  const capabilities = model.kind === 'embedding' ? ['embedding'] : ['completion', 'tools', ...(model.reasoning ? ['thinking'] : [])];
  return {
    modelfile: `FROM ${model.id}\n`,
    parameters: '',
    template: '{{ .Prompt }}',
    details: details(model),
    model_info: { 'general.architecture': model.ownedBy, 'general.basename': model.id, [`${model.ownedBy}.context_length`]: model.inputTokenLimit },
    capabilities,
    modified_at: modifiedAt(model),
  };
}
