// Ollama's errors: `{ "error": "..." }` and the status, nothing else; mid-stream, the same object
// as one more line.
import { failure, type Envelope, type MockError } from '../../conversation/errors.js';
import { answer, statusOf } from '../envelope.js';

export const ollamaEnvelope: Envelope = (error) => answer(error, statusOf(error), { error: error.message });

/** The 404 Ollama gives a model it has not pulled, in its own words. */
export function ollamaModelNotFound(id: string): MockError {
  return failure('model_not_found', `model '${id}' not found`);
}
