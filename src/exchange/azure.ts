// Azure OpenAI's doors besides chat, each the house's own operation under a deployment path:
// the deployment names the model as the body does, and the classic surface wants `api-version`.
import { requireApiVersion } from '../styles/azure-openai/surface.js';
import { caught } from './operation.js';
import { newNotes, type Operation } from './exchange.js';

export function deploymentOperation(operation: Operation): Operation {
  return async (mock, exchange, door) => {
    try {
      requireApiVersion(exchange.params, exchange.query);
    } catch (error) {
      return { error: caught(mock, error), notes: newNotes(door.style), headers: {}, envelope: door.envelope(exchange) };
    }
    return operation(mock, exchange, door);
  };
}
