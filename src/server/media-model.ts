// The model of an image or video request: named, or the first of its kind in the catalog. A
// model of another kind is the client's mistake (400 naming `model`); an unknown one a 404.
import { invalid } from '../conversation/errors.js';
import type { ModelEntry } from '../config/types.js';
import { requireModel } from './request.js';
import type { Mock } from './context.js';

export function mediaModel(mock: Mock, id: string | undefined, kind: 'image' | 'video'): ModelEntry {
  const config = mock.store.current;
  const ofKind = config.models.filter((model) => model.kind === kind);
  if (id === undefined) {
    if (!ofKind[0]) throw invalid(`No ${kind} model is configured, so 'model' cannot be left out.`, 'model');
    return ofKind[0];
  }
  const entry = config.modelById.get(id);
  if (entry && entry.kind !== kind) {
    throw invalid(
      `The model '${id}' is a ${entry.kind} model; this endpoint takes ${kind} models: ${ofKind.map((m) => m.id).join(', ')}.`,
      'model',
      'invalid_model',
    );
  }
  return requireModel(mock, id, [kind]);
}
