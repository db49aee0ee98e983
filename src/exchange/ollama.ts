// Ollama's model doors besides chat: the pulled models, one model's description, the server's
// version. The catalog answers them; a model it does not list is Ollama's own 404.
import { invalid } from '../conversation/errors.js';
import { ollamaModelNotFound } from '../styles/ollama/envelope.js';
import { ollamaCatalogId } from '../styles/ollama/model-ids.js';
import { OLLAMA_VERSION, ollamaShow, ollamaTags } from '../styles/ollama/models.js';
import { json } from './exchange.js';
import { plainOperation } from './operation.js';

export const ollamaTagList = plainOperation((mock) => json(ollamaTags(mock.store.current.models)));

export const ollamaVersion = plainOperation(() => json({ version: OLLAMA_VERSION }));

export const ollamaShowModel = plainOperation((mock, exchange) => {
  const body = (exchange.body ?? {}) as Record<string, unknown>;
  const asked = body.model ?? body.name;
  if (typeof asked !== 'string' || asked === '') throw invalid('model is required', 'model');
  const models = mock.store.current.modelById;
  const id = ollamaCatalogId(asked, (candidate) => models.has(candidate));
  if (id === undefined) throw ollamaModelNotFound(asked);
  return { ...json(ollamaShow(models.get(id)!)), notes: { model: id } };
});
