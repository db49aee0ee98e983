// Every request shape the installed @google/genai SDK's `models.generateContent` types allow,
// each with a minimal value, sent through the SDK whole and streamed: none is refused, and the
// table is held to the SDK's own type files, so a dependency bump that brings a new shape fails
// here first.
import { GoogleGenAI, type Content, type GenerateContentConfig, type Part, type Tool } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { keysOf, missingFrom } from './sdk-shapes.js';

const TYPES = '@google/genai/dist/genai.d.ts';
const model = 'gemini-2.5-flash';
const hi: Content = { role: 'user', parts: [{ text: 'Say hello.' }] };
const fnTool: Tool = { functionDeclarations: [{ name: 'f', parametersJsonSchema: { type: 'object' } }] };

/** What a row is: the request's contents and config, and what the mock does with it. */
interface Row {
  contents?: Content[];
  config?: GenerateContentConfig;
  does: string;
  /** Refused, with what refuses it and why: the row expects that error. */
  refused?: { answer: RegExp; why: string };
}

// The SDK itself refuses these outside Vertex AI, before any request is sent.
const vertexOnly = { answer: /only supported in Gemini Enterprise Agent Platform mode/, why: 'Vertex AI only: the SDK refuses it in Gemini API mode' };

const PARAMS: Record<string, Row> = {
  model: { does: 'picks the catalog entry' },
  contents: { does: 'the conversation' },
  config: { config: {}, does: 'the generation config' },
};

const CONFIG: Record<string, Row> = {
  abortSignal: { config: { abortSignal: new AbortController().signal }, does: 'the SDK keeps it; never sent' },
  httpOptions: { config: { httpOptions: { headers: { 'x-extra': '1' } } }, does: 'the SDK keeps it; never sent' },
  automaticFunctionCalling: { config: { automaticFunctionCalling: { disable: true } }, does: 'the SDK keeps it; never sent' },
  automaticContinuation: { config: { automaticContinuation: false }, does: 'the SDK keeps it; never sent' },
  audioTimestamp: { config: { audioTimestamp: true }, does: 'accepted, ignored', refused: vertexOnly },
  audioTranscriptionConfig: { config: { audioTranscriptionConfig: {} } as GenerateContentConfig, does: 'accepted, ignored' },
  cachedContent: { config: { cachedContent: 'cachedContents/c1' }, does: 'accepted, no cache' },
  candidateCount: { config: { candidateCount: 2 }, does: 'that many candidates' },
  continuationToken: { config: { continuationToken: 'token' } as GenerateContentConfig, does: 'accepted, ignored' },
  enableEnhancedCivicAnswers: { config: { enableEnhancedCivicAnswers: true }, does: 'accepted, ignored' },
  frequencyPenalty: { config: { frequencyPenalty: 0.5 }, does: 'accepted, ignored' },
  presencePenalty: { config: { presencePenalty: 0.5 }, does: 'accepted, ignored' },
  generationOutputConfig: { config: { generationOutputConfig: {} } as GenerateContentConfig, does: 'accepted, ignored', refused: vertexOnly },
  imageConfig: { config: { imageConfig: { aspectRatio: '1:1' } }, does: 'the shape of pictures asked' },
  labels: { config: { labels: { team: 'a' } }, does: 'accepted, ignored' },
  logprobs: { config: { responseLogprobs: true, logprobs: 2 }, does: 'alternatives per token' },
  responseLogprobs: { config: { responseLogprobs: true }, does: 'seeded logprobs consistent with the text' },
  maxOutputTokens: { config: { maxOutputTokens: 16 }, does: 'bounds the reply' },
  mediaResolution: { config: { mediaResolution: 'MEDIA_RESOLUTION_LOW' as GenerateContentConfig['mediaResolution'] }, does: 'accepted, ignored' },
  modelArmorConfig: { config: { modelArmorConfig: {} } as GenerateContentConfig, does: 'accepted, ignored', refused: vertexOnly },
  modelSelectionConfig: { config: { modelSelectionConfig: {} }, does: 'accepted, ignored', refused: vertexOnly },
  responseJsonSchema: { config: { responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } }, does: 'answered with a fitting document' },
  responseSchema: { config: { responseMimeType: 'application/json', responseSchema: { type: 'OBJECT' as never, properties: { a: { type: 'STRING' as never } } } }, does: 'answered with a fitting document' },
  responseMimeType: { config: { responseMimeType: 'text/plain' }, does: 'the reply form' },
  responseModalities: { config: { responseModalities: ['TEXT' as never] }, does: 'text, or pictures when asked' },
  routingConfig: { config: { routingConfig: {} }, does: 'accepted, ignored', refused: vertexOnly },
  safetySettings: { config: { safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' as never, threshold: 'BLOCK_NONE' as never }] }, does: 'accepted, ignored' },
  seed: { config: { seed: 7 }, does: 'seeds generation' },
  serviceTier: { config: { serviceTier: 'flex' } as GenerateContentConfig, does: 'accepted' },
  speechConfig: { config: { speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } } }, does: 'accepted, ignored for text' },
  stopSequences: { config: { stopSequences: ['STOP'] }, does: 'cuts the reply at a sequence' },
  store: { config: { store: false } as GenerateContentConfig, does: 'accepted, ignored' },
  systemInstruction: { config: { systemInstruction: 'Be brief.' }, does: 'system text' },
  temperature: { config: { temperature: 0.2 }, does: 'accepted, ignored' },
  thinkingConfig: { config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 128 } }, does: 'thought parts' },
  toolConfig: { config: { tools: [fnTool], toolConfig: { functionCallingConfig: { mode: 'AUTO' as never } } }, does: 'section 5 rules' },
  tools: { config: { tools: [fnTool] }, does: 'tools the reply may call' },
  topK: { config: { topK: 4 }, does: 'accepted, ignored' },
  topP: { config: { topP: 0.9 }, does: 'accepted, ignored' },
};

const ROLES: Record<string, Row> = {
  user: { contents: [hi], does: 'the user speaks' },
  model: { contents: [hi, { role: 'model', parts: [{ text: 'Hello.' }] }, hi], does: 'an earlier answer' },
};

const withCall = (result: Part): Content[] => [hi, { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] }, { role: 'user', parts: [result] }];
const inUser = (part: Part): Content[] => [{ role: 'user', parts: [part, { text: 'Go on.' }] }];
const inModel = (part: Part): Content[] => [hi, { role: 'model', parts: [part, { text: 'Hello.' }] }, hi];
const PARTS: Record<string, Row> = {
  text: { contents: inUser({ text: 'Hi.' }), does: 'text' },
  inlineData: { contents: inUser({ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }), does: 'bytes the prompt carries' },
  fileData: {
    contents: inUser({ fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } }),
    does: 'refused',
    refused: { answer: /must be sent inline as base64/, why: 'the gateway takes media inline only (SPEC 2: fileData is refused with 400)' },
  },
  videoMetadata: { contents: inUser({ inlineData: { mimeType: 'video/mp4', data: 'AAAA' }, videoMetadata: { startOffset: '1s' } }), does: 'accepted beside its media' },
  mediaResolution: { contents: inUser({ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' }, mediaResolution: { level: 'MEDIA_RESOLUTION_LOW' } } as Part), does: 'accepted, ignored' },
  partMetadata: { contents: inUser({ text: 'Hi.', partMetadata: { k: 'v' } } as Part), does: 'accepted, ignored' },
  thought: { contents: inModel({ text: 'Hmm.', thought: true }), does: 'an earlier thought' },
  thoughtSignature: { contents: inModel({ text: 'Hmm.', thought: true, thoughtSignature: 'c2ln' }), does: 'an earlier thought, signed' },
  functionCall: { contents: withCall({ functionResponse: { name: 'f', response: { output: 'done' } } }), does: 'an earlier call' },
  functionResponse: { contents: withCall({ functionResponse: { name: 'f', response: { error: 'failed' } } }), does: 'a tool result' },
  executableCode: { contents: inModel({ executableCode: { code: 'print(1)', language: 'PYTHON' as never } }), does: 'earlier code' },
  codeExecutionResult: { contents: inModel({ codeExecutionResult: { outcome: 'OUTCOME_OK' as never, output: '1' } }), does: 'earlier code output' },
  toolCall: { contents: inModel({ toolCall: { toolType: 'GOOGLE_SEARCH_WEB', args: {} } } as Part), does: 'an earlier server-side tool call' },
  toolResponse: { contents: inModel({ toolResponse: { toolType: 'GOOGLE_SEARCH_WEB', response: {} } } as Part), does: 'an earlier server-side tool result' },
  audioTranscription: { contents: inModel({ audioTranscription: { text: 'Hello.' } } as Part), does: 'accepted, ignored' },
  speechMetadata: { contents: inModel({ text: 'Hello.', speechMetadata: {} } as Part), does: 'accepted, ignored' },
  mediaProcessing: { contents: inUser({ text: 'Hi.', mediaProcessing: {} } as Part), does: 'accepted, ignored' },
};

const tool = (value: object): Tool => value as Tool;
const TOOLS: Record<string, Row> = {
  functionDeclarations: { config: { tools: [fnTool] }, does: 'functions the reply may call' },
  codeExecution: { config: { tools: [{ codeExecution: {} }] }, does: 'accepted, no execution' },
  computerUse: { config: { tools: [tool({ computerUse: { environment: 'ENVIRONMENT_BROWSER' } })] }, does: 'accepted, answered as text' },
  enterpriseWebSearch: { config: { tools: [{ enterpriseWebSearch: {} }] }, does: 'accepted, no search', refused: vertexOnly },
  exaAiSearch: { config: { tools: [tool({ exaAiSearch: {} })] }, does: 'accepted, no search', refused: vertexOnly },
  fileSearch: { config: { tools: [tool({ fileSearch: { fileSearchStoreNames: ['fileSearchStores/s'] } })] }, does: 'accepted, no search' },
  googleMaps: { config: { tools: [{ googleMaps: {} }] }, does: 'accepted, no search' },
  googleSearch: { config: { tools: [{ googleSearch: {} }] }, does: 'accepted, no search' },
  googleSearchRetrieval: { config: { tools: [{ googleSearchRetrieval: {} }] }, does: 'accepted, no search' },
  mcpServers: { config: { tools: [tool({ mcpServers: [{ name: 's', streamableHttpTransport: { url: 'https://example.com/mcp' } }] })] }, does: 'accepted, no connection' },
  parallelAiSearch: { config: { tools: [tool({ parallelAiSearch: {} })] }, does: 'accepted, no search', refused: vertexOnly },
  retrieval: { config: { tools: [{ retrieval: { vertexAiSearch: { datastore: 'd' } } }] }, does: 'accepted, no search', refused: vertexOnly },
  urlContext: { config: { tools: [{ urlContext: {} }] }, does: 'accepted, no fetch' },
};

const ROWS: [string, Row][] = [
  ...Object.entries(PARAMS).map(([k, v]): [string, Row] => [`param ${k}`, v]),
  ...Object.entries(CONFIG).map(([k, v]): [string, Row] => [`config ${k}`, v]),
  ...Object.entries(ROLES).map(([k, v]): [string, Row] => [`role ${k}`, v]),
  ...Object.entries(PARTS).map(([k, v]): [string, Row] => [`part ${k}`, v]),
  ...Object.entries(TOOLS).map(([k, v]): [string, Row] => [`tool ${k}`, v]),
];

describe('the table holds every shape the installed SDK types declare', () => {
  it.each([
    ['parameters', keysOf(TYPES, 'GenerateContentParameters'), PARAMS],
    ['config fields', keysOf(TYPES, 'GenerateContentConfig'), CONFIG],
    ['part fields', keysOf(TYPES, 'Part'), PARTS],
    ['tool kinds', keysOf(TYPES, 'Tool'), TOOLS],
  ] as const)('%s', (_what, declared, table) => {
    expect(missingFrom(declared, table), 'declared by the SDK, missing from the table').toEqual([]);
  });
});

let server: TestServer;
let ai: GoogleGenAI;
beforeAll(async () => {
  server = await startTestServer();
  ai = new GoogleGenAI({ apiKey: 'genai-variants', httpOptions: { baseUrl: server.url } });
});
afterAll(() => server.close());

describe('every variant is answered, whole and streamed', () => {
  it.each(ROWS)('%s', async (_name, row) => {
    const request = { model, contents: row.contents ?? [hi], config: row.config ?? {} };
    if (row.refused) {
      await expect(ai.models.generateContent(request)).rejects.toThrow(row.refused.answer);
      await expect((async () => { for await (const _ of await ai.models.generateContentStream(request)); })()).rejects.toThrow(row.refused.answer);
      return;
    }
    const whole = await ai.models.generateContent(request);
    expect(whole.candidates?.length).toBeGreaterThan(0);
    let chunks = 0;
    for await (const _chunk of await ai.models.generateContentStream(request)) chunks += 1;
    expect(chunks).toBeGreaterThan(0);
  });
});
