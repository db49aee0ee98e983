// Samples of the bedrock style's row: each of its four operations on a Bedrock model id.
import type { DoorSamples } from './sample.js';

const converse = { messages: [{ role: 'user', content: [{ text: 'hi' }] }], inferenceConfig: { maxTokens: 64 } };
const invoke = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };

const operation = (label: string, body: unknown) => ({
  label,
  request: { params: { modelId: 'us.anthropic.claude-sonnet-4-6-v1:0', operation: label }, body },
  model: 'claude-sonnet-4-6',
  status: 200,
  source: 'generated',
} as const);

export const BEDROCK_SAMPLES: DoorSamples = {
  door: 'bedrock',
  rows: {
    'POST /model/:modelId/:operation': [
      operation('converse', converse),
      operation('converse-stream', converse),
      operation('invoke', invoke),
      operation('invoke-with-response-stream', invoke),
    ],
  },
};
