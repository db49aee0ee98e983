// An Ollama answer read back into the neutral reply: the one object, or the NDJSON lines with
// their pieces joined; the counts are on the line that says `done: true`.
import { asArray, asObject, asString, parseArguments, reasoningOf, streamedReply, usageOf, type Json, type RecordedAnswer, type RecordedReply } from '../../conversation/recorded.js';
import type { FinishReason } from '../../conversation/types.js';

function finishOf(line: Json, calls: number): FinishReason | undefined {
  if (line.done !== true) return undefined;
  if (line.done_reason === 'length') return 'length';
  return calls > 0 ? 'tool_calls' : 'stop';
}

function callsOf(message: Json): RecordedReply['toolCalls'] {
  return asArray(message.tool_calls).map((call) => {
    const fn = asObject(asObject(call).function);
    return { name: asString(fn.name) ?? '', arguments: parseArguments(fn.arguments) };
  });
}

function piecesOf(line: Json): { text?: string; thinking?: string; message: Json } {
  const message = asObject(line.message);
  return { text: asString(line.response) ?? asString(message.content), thinking: asString(line.thinking) ?? asString(message.thinking), message };
}

export function readOllama(answer: RecordedAnswer): RecordedReply {
  if (!answer.events) {
    const body = asObject(answer.body);
    const { text, thinking, message } = piecesOf(body);
    const toolCalls = callsOf(message);
    return { text: text ?? '', ...reasoningOf(thinking), toolCalls, finishReason: finishOf(body, toolCalls.length), usage: usageOf(body.prompt_eval_count, body.eval_count) };
  }
  const chunks: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: RecordedReply['toolCalls'] = [];
  let closing: Json = {};
  for (const { data } of answer.events) {
    const line = asObject(data);
    const { text, thinking, message } = piecesOf(line);
    if (text) chunks.push(text);
    if (thinking) reasoning.push(thinking);
    toolCalls.push(...callsOf(message));
    if (line.done === true) closing = line;
  }
  return streamedReply(chunks, reasoning, { toolCalls, finishReason: finishOf(closing, toolCalls.length), usage: usageOf(closing.prompt_eval_count, closing.eval_count) });
}
