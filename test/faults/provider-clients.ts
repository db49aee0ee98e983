// Each provider's official client asked one question, whole or streamed, and what it heard read
// into one shape, so the fault table can state one expectation per fault for every provider.
import { ConverseCommand, ConverseStreamCommand, InvokeModelCommand, InvokeModelWithResponseStreamCommand, type ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import type Anthropic from '@anthropic-ai/sdk';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { GoogleGenAI, type GenerateContentResponse, Type } from '@google/genai';
import type { AuthClient } from 'google-auth-library';
import { Ollama, type ChatResponse } from 'ollama';
import OpenAI, { AzureOpenAI } from 'openai';
import { bedrockFor } from '../helpers/bedrock-client.js';

export interface Call {
  id: string;
  name: string;
  args: string;
}

/** What a client heard: `stop` is the style's own stop (for a blocked Gemini prompt, its blockReason). */
export interface Said {
  text: string;
  refusal: string;
  reasoning: string;
  calls: Call[];
  stop: string;
}

/** What is asked: a plain question, one with a `get_weather` tool the model must call, or one asking for reasoning. */
export type Asked = 'plain' | 'tools' | 'reasoning';

export type Ask = (asked: Asked, streamed: boolean, headers: Record<string, string>) => Promise<Said>;

const QUESTION = 'Write a few sentences about the weather in Paris.';
export const WEATHER = { type: 'object' as const, properties: { city: { type: 'string' as const } }, required: ['city'] };

function heard(): Said {
  return { text: '', refusal: '', reasoning: '', calls: [], stop: '' };
}

/** A piece of a call's arguments, opening the call when it carries its id or name. */
function addCall(said: Said, index: number, piece: Partial<Call>): void {
  const call = (said.calls[index] ??= { id: '', name: '', args: '' });
  call.id ||= piece.id ?? '';
  call.name ||= piece.name ?? '';
  call.args += piece.args ?? '';
}

export function ollamaAsk(url: string): Ask {
  return async (asked, streamed, headers) => {
    const body = {
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: QUESTION }],
      ...(asked === 'tools' && { tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: WEATHER } }] }),
      ...(asked === 'reasoning' && { think: true }),
    };
    const client = new Ollama({ host: url, headers });
    const said = heard();
    const add = (part: ChatResponse) => {
      said.text += part.message.content;
      said.reasoning += part.message.thinking ?? '';
      for (const call of part.message.tool_calls ?? []) said.calls.push({ id: '', name: call.function.name, args: JSON.stringify(call.function.arguments) });
      said.stop = part.done_reason || said.stop;
    };
    if (!streamed) add(await client.chat({ ...body, stream: false }));
    else for await (const part of await client.chat({ ...body, stream: true })) add(part);
    return said;
  };
}

/** The openai SDK on a provider's chat completions (OpenRouter, Azure OpenAI); a stream joined by hand, as a tool call whose arguments are not JSON is what is tested. */
export function openaiAsk(client: (headers: Record<string, string>) => OpenAI, model: string, thinker: string): Ask {
  return async (asked, streamed, headers) => {
    const body = {
      model: asked === 'reasoning' ? thinker : model,
      messages: [{ role: 'user' as const, content: QUESTION }],
      ...(asked === 'tools' && { tools: [{ type: 'function' as const, function: { name: 'get_weather', parameters: WEATHER } }], tool_choice: 'required' as const }),
      ...(asked === 'reasoning' && { reasoning_effort: 'low' as const }),
    };
    const said = heard();
    type WithReasoning = { reasoning_content?: string };
    if (!streamed) {
      const choice = (await client(headers).chat.completions.create(body)).choices[0]!;
      said.text = choice.message.content ?? '';
      said.refusal = choice.message.refusal ?? '';
      said.reasoning = (choice.message as WithReasoning).reasoning_content ?? '';
      for (const call of choice.message.tool_calls ?? []) if (call.type === 'function') said.calls.push({ id: call.id, name: call.function.name, args: call.function.arguments });
      said.stop = choice.finish_reason;
      return said;
    }
    for await (const chunk of await client(headers).chat.completions.create({ ...body, stream: true })) {
      const choice = chunk.choices[0];
      if (!choice) continue;
      said.text += choice.delta.content ?? '';
      said.refusal += choice.delta.refusal ?? '';
      said.reasoning += (choice.delta as WithReasoning).reasoning_content ?? '';
      for (const call of choice.delta.tool_calls ?? []) addCall(said, call.index, { id: call.id, name: call.function?.name, args: call.function?.arguments });
      said.stop = choice.finish_reason ?? said.stop;
    }
    return said;
  };
}

export const openrouterClient = (url: string) => (headers: Record<string, string>) => new OpenAI({ baseURL: `${url}/api/v1`, apiKey: 'sk-or', maxRetries: 0, defaultHeaders: headers });
export const azureClient = (url: string) => (headers: Record<string, string>) =>
  new AzureOpenAI({ endpoint: url, apiKey: 'azure-key', apiVersion: '2024-10-21', maxRetries: 0, defaultHeaders: headers });

const BEDROCK_MODEL = 'anthropic.claude-sonnet-4-6-v1:0';

export function converseAsk(url: string): Ask {
  return async (asked, streamed, headers) => {
    const input = {
      modelId: BEDROCK_MODEL,
      messages: [{ role: 'user' as const, content: [{ text: QUESTION }] }],
      ...(asked === 'tools' && { toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: WEATHER } } }], toolChoice: { any: {} } } }),
      ...(asked === 'reasoning' && { inferenceConfig: { maxTokens: 4096 }, additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } } }),
    };
    const client = bedrockFor(url, headers);
    const said = heard();
    try {
      if (!streamed) {
        const whole = await client.send(new ConverseCommand(input));
        for (const block of whole.output!.message!.content!) {
          said.text += block.text ?? '';
          said.reasoning += block.reasoningContent?.reasoningText?.text ?? '';
          if (block.toolUse) said.calls.push({ id: block.toolUse.toolUseId!, name: block.toolUse.name!, args: JSON.stringify(block.toolUse.input) });
        }
        said.stop = whole.stopReason!;
        return said;
      }
      const calls = new Map<number, number>();
      const { stream } = await client.send(new ConverseStreamCommand(input));
      for await (const event of stream as AsyncIterable<ConverseStreamOutput>) {
        const use = event.contentBlockStart?.start?.toolUse;
        if (use) calls.set(event.contentBlockStart!.contentBlockIndex!, calls.size);
        if (use) addCall(said, calls.size - 1, { id: use.toolUseId, name: use.name });
        const delta = event.contentBlockDelta?.delta;
        said.text += delta?.text ?? '';
        said.reasoning += delta?.reasoningContent?.text ?? '';
        if (delta?.toolUse) addCall(said, calls.get(event.contentBlockDelta!.contentBlockIndex!)!, { args: delta.toolUse.input });
        said.stop = event.messageStop?.stopReason ?? said.stop;
      }
      return said;
    } finally {
      client.destroy();
    }
  };
}

function messagesBody(asked: Asked) {
  return {
    max_tokens: asked === 'reasoning' ? 4096 : 1024,
    messages: [{ role: 'user' as const, content: QUESTION }],
    ...(asked === 'tools' && { tools: [{ name: 'get_weather', input_schema: WEATHER }], tool_choice: { type: 'any' as const } }),
    ...(asked === 'reasoning' && { thinking: { type: 'enabled' as const, budget_tokens: 1024 } }),
  };
}

function readMessage(message: Anthropic.Message): Said {
  const said = heard();
  for (const block of message.content) {
    if (block.type === 'text') said.text += block.text;
    if (block.type === 'thinking') said.reasoning += block.thinking;
    if (block.type === 'tool_use') said.calls.push({ id: block.id, name: block.name, args: JSON.stringify(block.input) });
  }
  said.stop = message.stop_reason ?? '';
  return said;
}

/** The messages wire's events joined: a call's `input_json_delta` pieces kept as sent. */
async function joinEvents(events: AsyncIterable<Anthropic.RawMessageStreamEvent>): Promise<Said> {
  const said = heard();
  const calls = new Map<number, number>();
  for await (const event of events) {
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      calls.set(event.index, calls.size);
      addCall(said, calls.size - 1, { id: event.content_block.id, name: event.content_block.name });
    }
    if (event.type === 'content_block_delta') {
      if (event.delta.type === 'text_delta') said.text += event.delta.text;
      if (event.delta.type === 'thinking_delta') said.reasoning += event.delta.thinking;
      if (event.delta.type === 'input_json_delta') addCall(said, calls.get(event.index)!, { args: event.delta.partial_json });
    }
    if (event.type === 'message_delta') said.stop = event.delta.stop_reason ?? said.stop;
  }
  // A call without arguments sends one empty input_json_delta: its input is the empty object.
  for (const call of said.calls) call.args ||= '{}';
  return said;
}

export function invokeAsk(url: string): Ask {
  return async (asked, streamed, headers) => {
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', ...messagesBody(asked) });
    const client = bedrockFor(url, headers);
    try {
      if (!streamed) {
        const whole = await client.send(new InvokeModelCommand({ modelId: BEDROCK_MODEL, body, contentType: 'application/json' }));
        return readMessage(JSON.parse(Buffer.from(whole.body).toString()) as Anthropic.Message);
      }
      const { body: chunks } = await client.send(new InvokeModelWithResponseStreamCommand({ modelId: BEDROCK_MODEL, body, contentType: 'application/json' }));
      return await joinEvents(
        (async function* () {
          for await (const part of chunks!) yield JSON.parse(Buffer.from(part.chunk!.bytes!).toString()) as Anthropic.RawMessageStreamEvent;
        })(),
      );
    } finally {
      client.destroy();
    }
  };
}

/** What Google's auth library hands the clients: a token, without reaching Google. */
const authClient = { projectId: 'my-project', getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.mock-token' }) } as unknown as AuthClient;

export function vertexClaudeAsk(url: string): Ask {
  return async (asked, streamed, headers) => {
    const client = new AnthropicVertex({ baseURL: `${url}/v1`, region: 'us-east5', projectId: 'my-project', authClient, maxRetries: 0, defaultHeaders: headers });
    const body = { model: 'claude-sonnet-4-6', ...messagesBody(asked) };
    return streamed ? joinEvents(await client.messages.create({ ...body, stream: true })) : readMessage(await client.messages.create(body));
  };
}

export function vertexGeminiAsk(url: string): Ask {
  return async (asked, streamed, headers) => {
    const client = new GoogleGenAI({ vertexai: true, project: 'my-project', location: 'us-central1', googleAuthOptions: { authClient }, httpOptions: { baseUrl: url, headers } });
    const config = {
      ...(asked === 'tools' && {
        tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] } }] }],
      }),
      ...(asked === 'reasoning' && { thinkingConfig: { includeThoughts: true } }),
    };
    const ask = { model: 'gemini-2.5-flash', contents: QUESTION, config };
    const said = heard();
    const add = (chunk: GenerateContentResponse) => {
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        if (part.thought) said.reasoning += part.text ?? '';
        else said.text += part.text ?? '';
        if (part.functionCall) said.calls.push({ id: part.functionCall.id ?? '', name: part.functionCall.name!, args: JSON.stringify(part.functionCall.args) });
      }
      said.stop = candidate?.finishReason ?? chunk.promptFeedback?.blockReason ?? said.stop;
    };
    if (!streamed) add(await client.models.generateContent(ask));
    else for await (const chunk of await client.models.generateContentStream(ask)) add(chunk);
    return said;
  };
}
