// OpenRouter's errors: `{ error: { code, message } }` with the HTTP status as the code; the
// openai SDK reads them as it reads OpenAI's. Mid-stream, the same object as a `data:` event.
import type { Envelope } from '../../conversation/errors.js';
import { answer, statusOf } from '../envelope.js';

export const openrouterEnvelope: Envelope = (error) => {
  const status = statusOf(error);
  return answer(error, status, { error: { code: status, message: error.message, ...(error.options.param && { metadata: { param: error.options.param } }) } });
};
