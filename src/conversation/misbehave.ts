// The semantic faults of SPEC 21 as one pure transformation of a reply's draft: what a model that
// misbehaves would have said, decided once for every style. Each style then spells it with its
// own refusal, length stop and filter stop. Undefined: the fault has nothing to act on in this
// request (a tool fault without tools), and the reply stays as it was.
import { generatedArguments, type Draft } from './draft.js';
import { appliesIn, type SemanticFault } from './faults.js';
import { foreignProse } from './foreign-prose.js';
import { inMessagesWire } from './messages-wire.js';
import { generateProse } from './prose.js';
import type { Random } from './random.js';
import { firstTokens } from './token-chunks.js';
import { countTokens } from './tokens.js';
import type { ChatRequest, ToolCall, ToolDef } from './types.js';
import { violate } from './violation.js';

export interface Misbehaving {
  fault: SemanticFault;
  request: ChatRequest;
  random: Random;
  /** The id the reply's tool calls start from. */
  callId: string;
  /** The output limit, which a cut answer stays below. */
  limit: number;
}

const REFUSALS = [
  "I'm sorry, but I can't help with that request.",
  "I can't assist with that.",
  "I'm not able to help with this request.",
];

const UNDECLARED = ['search_web', 'run_shell_command', 'read_file', 'send_email', 'delete_records'];

/** A draft whose text changed: its fixture's pieces and token count no longer hold. */
function rewritten(draft: Draft, changes: Partial<Draft>): Draft {
  return { ...draft, textTokens: undefined, chunks: undefined, ...changes };
}

/** The call the draft makes, else a call of a declared tool as the generator would make it. */
function someCall(draft: Draft, m: Misbehaving): { call: ToolCall; tool: ToolDef | undefined } | undefined {
  const made = draft.toolCalls[0];
  if (made) return { call: made, tool: m.request.tools.find((t) => t.name === made.name) };
  if (m.request.tools.length === 0) return undefined;
  const tool = m.random.pick(m.request.tools);
  return { call: { id: `${m.callId}0`, name: tool.name, arguments: generatedArguments(tool, m.random) }, tool };
}

/** The properties whose JSON lies wholly within the first `length` characters of the object's text. */
function sentWhole(args: Record<string, unknown>, length: number): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const next = { ...kept, [name]: value };
    if (JSON.stringify(next).length - 1 > length) break;
    kept[name] = value;
  }
  return kept;
}

/** The call with its arguments' text cut about half way: inside the object, or one of its strings. */
function cutCall(call: ToolCall): ToolCall {
  const text = JSON.stringify(call.arguments);
  const at = Math.max(1, Math.floor(text.length / 2));
  return { ...call, arguments: sentWhole(call.arguments, at), argumentsText: text.slice(0, at) };
}

/** Text cut about half way, never at the end of a sentence, so it stops mid-sentence. */
function cutText(text: string): string {
  const tokens = firstTokens(text, Math.max(1, Math.floor(countTokens(text) / 2)));
  while (tokens.length > 1 && /[.!?]\s*$/.test(tokens.at(-1)!)) tokens.pop();
  return tokens.join('').trimEnd();
}

function invalidToolJson(draft: Draft, m: Misbehaving): Draft | undefined {
  // A whole messages reply carries its input as an object: there the fault cannot be sent.
  if (inMessagesWire(m.request) && !m.request.stream) return undefined;
  const some = someCall(draft, m);
  return some && rewritten(draft, { text: '', toolCalls: [cutCall(some.call)], finishReason: 'tool_calls' });
}

function schemaViolation(draft: Draft, m: Misbehaving): Draft | undefined {
  const format = m.request.responseFormat;
  if (draft.toolCalls.length === 0 && format.type === 'json_schema') {
    const value = violate(format.schema, structured(draft.text, format.schema, m), m.random, m.fault.violation);
    return value && rewritten(draft, { text: JSON.stringify(value) });
  }
  const some = someCall(draft, m);
  if (!some?.tool) return undefined;
  const args = violate(some.tool.parameters, some.call.arguments, m.random, m.fault.violation);
  return args && rewritten(draft, { text: '', toolCalls: [{ ...some.call, arguments: args }], finishReason: 'tool_calls' });
}

/** The draft's structured output, or a schema-true one where its text is not a JSON object. */
function structured(text: string, schema: Record<string, unknown>, m: Misbehaving): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Not JSON: a schema-true document stands in for it.
  }
  return generatedArguments({ name: 'output', parameters: schema }, m.random);
}

function unknownTool(draft: Draft, m: Misbehaving): Draft | undefined {
  const declared = new Set(m.request.tools.map((t) => t.name));
  if (declared.size === 0) return undefined;
  const name = m.fault.toolName ?? m.random.pick(UNDECLARED.filter((n) => !declared.has(n)));
  if (declared.has(name)) return undefined;
  const call: ToolCall = { id: `${m.callId}0`, name, arguments: { query: generateProse(m.random, 8) }, undeclared: true };
  return rewritten(draft, { text: '', toolCalls: [call], finishReason: 'tool_calls' });
}

function duplicateToolIds(draft: Draft, m: Misbehaving): Draft | undefined {
  const first = someCall(draft, m);
  if (!first) return undefined;
  const tool = first.tool ?? m.random.pick(m.request.tools);
  const second = draft.toolCalls[1] ?? { id: `${m.callId}1`, name: tool.name, arguments: generatedArguments(tool, m.random) };
  return rewritten(draft, { text: '', toolCalls: [first.call, { ...second, id: first.call.id }], finishReason: 'tool_calls' });
}

function truncated(draft: Draft): Draft | undefined {
  const call = draft.toolCalls[0];
  if (call) return rewritten(draft, { text: '', toolCalls: [cutCall(call)], finishReason: 'length' });
  if (draft.text === '') return undefined;
  return rewritten(draft, { text: cutText(draft.text), finishReason: 'length' });
}

function wrongLanguage(draft: Draft, m: Misbehaving): Draft | undefined {
  if (draft.text === '' || draft.toolCalls.length > 0 || m.request.responseFormat.type !== 'text') return undefined;
  const language = m.fault.language ?? m.random.pick(['fr', 'de', 'es'] as const);
  return rewritten(draft, { text: foreignProse(m.random, language, countTokens(draft.text), m.limit) });
}

export function misbehave(draft: Draft, m: Misbehaving): Draft | undefined {
  // The catalogue's styles are the promise: a style it does not list is left as it was.
  if (!appliesIn(m.fault.name, m.request.style)) return undefined;
  switch (m.fault.name) {
    case 'invalid_tool_json':
      return invalidToolJson(draft, m);
    case 'schema_violation':
      return schemaViolation(draft, m);
    case 'unknown_tool':
      return unknownTool(draft, m);
    case 'duplicate_tool_ids':
      return duplicateToolIds(draft, m);
    case 'truncated':
      return truncated(draft);
    case 'empty':
      return rewritten(draft, { text: '', toolCalls: [], finishReason: 'stop' });
    case 'refusal':
      return rewritten(draft, { text: m.random.pick(REFUSALS), toolCalls: [], finishReason: 'refusal' });
    case 'content_filter':
      return rewritten(draft, { text: '', toolCalls: [], finishReason: 'content_filter' });
    case 'reasoning_only':
      return m.request.reasoning ? rewritten(draft, { text: '', toolCalls: [], finishReason: 'stop' }) : undefined;
    case 'wrong_language':
      return wrongLanguage(draft, m);
    case 'malformed_result':
      // A fake tool server's fault (scenarios/tool-step.ts): a model's reply has nothing to act on.
      return undefined;
  }
}
