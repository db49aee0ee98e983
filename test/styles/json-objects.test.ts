// A tool's schema, a call's arguments and a response schema are JSON objects the mock passes on
// unread: each style refuses anything else with the message and field its vendor's check gives.
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/exchange/exchange.js';
import { answer, plainMock } from '../helpers/mock.js';

function refusal(outcome: Outcome): string {
  if (!('error' in outcome) || !outcome.error) throw new Error(`expected an error, got ${JSON.stringify(outcome).slice(0, 200)}`);
  return outcome.error.message;
}

const user = [{ role: 'user', content: 'hi' }];
const GEMINI = { target: 'gemini-2.5-flash:generateContent' };
const CASES: [string, string, Record<string, unknown>, string, Record<string, string>?][] = [
  ['chat-completions: a tool\'s parameters', 'POST /v1/chat/completions', { model: 'gpt-4o-mini', messages: user, tools: [{ type: 'function', function: { name: 'f', parameters: [] } }] }, 'Invalid value for \'tools[0].function.parameters\': Invalid input: expected record, received array.'],
  ['chat-completions: a response schema', 'POST /v1/chat/completions', { model: 'gpt-4o-mini', messages: user, response_format: { type: 'json_schema', json_schema: { name: 'o', schema: 'x' } } }, 'Invalid value for \'response_format\': Invalid input.'],
  ['responses: a tool\'s parameters', 'POST /v1/responses', { model: 'gpt-4o-mini', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: [] }] }, 'Invalid value for \'tools[0].parameters\': Invalid input: expected record, received array.'],
  ['responses: a text format\'s schema', 'POST /v1/responses', { model: 'gpt-4o-mini', input: 'hi', text: { format: { type: 'json_schema', name: 'o', schema: [] } } }, 'Invalid value for \'text.format.schema\': Invalid input: expected record, received array.'],
  ['generate-content: a function\'s parameters', 'POST /v1beta/models/:target', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ functionDeclarations: [{ name: 'f', parameters: [] }] }] }, 'Invalid value for \'tools[0].functionDeclarations[0].parameters\': Invalid input: expected record, received array.', GEMINI],
  ['generate-content: a call\'s args', 'POST /v1beta/models/:target', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }, { role: 'model', parts: [{ functionCall: { name: 'f', args: 'x' } }] }] }, 'Invalid value for \'contents[1].parts[0].functionCall.args\': Invalid input: expected record, received string.', GEMINI],
  ['ollama: a tool\'s parameters', 'POST /api/chat', { model: 'llama3.2', messages: user, tools: [{ type: 'function', function: { name: 'f', parameters: [] } }] }, 'Invalid value for \'tools[0].function.parameters\': Invalid input: expected record, received array.'],
];

describe('a JSON object field given something else', () => {
  for (const [name, door, body, message, params] of CASES) {
    it(`is refused as before: ${name}`, async () => {
      const got = refusal(await answer(plainMock(), door, { body, ...(params && { params }) }));
      expect(got).toBe(message);
    });
  }
});
