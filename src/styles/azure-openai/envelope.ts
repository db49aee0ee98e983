// Azure OpenAI's errors: OpenAI's `{ error }` object, with Azure's own codes where it has them
// (`DeploymentNotFound`, `429`), and the same object as a `data:` event inside a stream.
import { failure, type Envelope, type MockError } from '../../conversation/errors.js';
import { openaiEnvelope } from '../openai-envelope.js';

const DEPLOYMENT_NOT_FOUND = 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.';

export const azureEnvelope: Envelope = (error, requestId) => {
  const made = openaiEnvelope(error, requestId);
  if (error.options.body !== undefined) return made;
  const body = made.body as { error: Record<string, unknown> };
  const code = error.message === DEPLOYMENT_NOT_FOUND ? 'DeploymentNotFound' : error.kind === 'rate_limit' ? '429' : body.error.code;
  return { ...made, body: { error: { ...body.error, code } } };
};

export function deploymentNotFound(): MockError {
  return failure('model_not_found', DEPLOYMENT_NOT_FOUND);
}
