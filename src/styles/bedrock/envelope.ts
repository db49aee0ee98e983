// Bedrock's errors: a JSON `{ message }` whose type is the `x-amzn-ErrorType` header, and the
// same types inside a stream as event-stream exception messages (their event names end in
// `Exception`, which the framer reads).
import type { ErrorKind, Envelope, MockError } from '../../conversation/errors.js';
import type { StreamEvent } from '../../conversation/plan.js';
import { answer, statusOf } from '../envelope.js';

const TYPES: Record<ErrorKind, string> = {
  invalid_request: 'ValidationException',
  unauthorized: 'AccessDeniedException',
  forbidden: 'AccessDeniedException',
  not_found: 'ResourceNotFoundException',
  too_large: 'ValidationException',
  rate_limit: 'ThrottlingException',
  server_error: 'InternalServerException',
  overloaded: 'ServiceUnavailableException',
  timeout: 'ModelTimeoutException',
};

/** AWS answers a refused signature 403 and a model's timeout 408. */
const STATUSES: Partial<Record<ErrorKind, number>> = { unauthorized: 403, timeout: 408 };

export const bedrockEnvelope: Envelope = (error) =>
  answer(error, statusOf(error, STATUSES), { message: error.message }, { 'x-amzn-errortype': `${TYPES[error.kind]}:http://internal.amazon.com/coral/com.amazon.bedrock/` });

/** The exceptions a stream's union has as members, by their member names; the rest are the server's. */
const IN_STREAM: Partial<Record<ErrorKind, string>> = {
  invalid_request: 'validationException',
  too_large: 'validationException',
  rate_limit: 'throttlingException',
  overloaded: 'serviceUnavailableException',
  timeout: 'modelStreamErrorException',
};

export function bedrockStreamError(error: MockError): StreamEvent[] {
  return [{ event: IN_STREAM[error.kind] ?? 'internalServerException', data: { message: error.message } }];
}
