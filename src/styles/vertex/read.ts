// A Vertex answer read back into the neutral reply: generate-content's for a Gemini model, the
// messages wire's for an Anthropic model (its stream names its events; Gemini's does not).
import { asObject, type RecordedAnswer, type RecordedReply } from '../../conversation/recorded.js';
import { readGenerateContent } from '../generate-content/read.js';
import { readMessage } from '../messages/read.js';

export function readVertex(answer: RecordedAnswer): RecordedReply {
  const anthropic = answer.events ? answer.events.some((item) => typeof item.event === 'string' && item.event !== '') : asObject(answer.body).type === 'message';
  return anthropic ? readMessage(answer) : readGenerateContent(answer);
}
