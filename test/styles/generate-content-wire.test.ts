// Generate-content wire details no SDK shows: the trailing slash, `?key=`, snake_case bodies, the
// raw SSE bytes, the JSON-array stream without `alt=sse`, and 4xx bodies for bad parts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Candidate {
  content: { role: string; parts?: Array<{ text?: string }> };
  finishReason?: string;
  index: number;
}
interface GenerateResponse {
  candidates: Candidate[];
  usageMetadata: { promptTokenCount: number };
}
interface ErrorBody {
  error: { code: number; status: string; message: string };
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const HELLO = { contents: [{ role: 'user', parts: [{ text: 'hello wire' }] }] };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: {
      'chat.yaml': `
chat:
  - name: pdf
    match: { media: "application/pdf", system: "librarian" }
    reply: { text: "A document, then." }
`,
    },
  });
});
afterAll(() => server.close());

function post(path: string, body: unknown = HELLO, headers: Record<string, string> = { 'x-goog-api-key': 'k' }): Promise<Response> {
  return fetch(`${server.url}/v1beta/models/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function read<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

const textOf = (response: GenerateResponse) => response.candidates[0]!.content.parts![0]!.text;

describe('generate-content paths and keys', () => {
  it('takes the key as ?key= and the path with a trailing slash', async () => {
    const plain = await read<GenerateResponse>(await post('gemini-2.5-flash:generateContent'));
    const slashed = await post('gemini-2.5-flash:generateContent/?key=k', HELLO, {});
    expect(slashed.status).toBe(200);
    expect((await read<GenerateResponse>(slashed)).candidates).toEqual(plain.candidates);
  });

  it('answers 401 UNAUTHENTICATED without a key, in the Gemini envelope', async () => {
    const response = await post('gemini-2.5-flash:generateContent', HELLO, {});
    expect(response.status).toBe(401);
    expect((await read<ErrorBody>(response)).error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  });

  it('answers 404 NOT_FOUND for an unknown or a missing action', async () => {
    for (const path of ['gemini-2.5-flash:summarize', 'gemini-2.5-flash']) {
      const response = await post(path);
      expect(response.status).toBe(404);
      const body = await read<ErrorBody>(response);
      expect(body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
      expect(body.error.message).toContain('generateContent');
    }
  });

  it('counts tokens with a trailing slash, and from a whole generateContentRequest', async () => {
    const plain = await read<{ totalTokens: number }>(await post('gemini-2.5-flash:countTokens/'));
    const wrapped = await read<{ totalTokens: number }>(
      await post('gemini-2.5-flash:countTokens', { generateContentRequest: { model: 'models/gemini-2.5-flash', ...HELLO } }),
    );
    const generated = await read<GenerateResponse>(await post('gemini-2.5-flash:generateContent'));
    expect(plain.totalTokens).toBe(generated.usageMetadata.promptTokenCount);
    expect(wrapped.totalTokens).toBe(plain.totalTokens);
  });

  // Raw: @google/genai refuses these two fields itself before it sends a Gemini API countTokens.
  it('counts a system instruction and tools given beside the contents, and refuses them in the wrong shape', async () => {
    const plain = await read<{ totalTokens: number }>(await post('gemini-2.5-flash:countTokens'));
    const tools = [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather for a city' }] }];
    const withBoth = await post('gemini-2.5-flash:countTokens', { ...HELLO, systemInstruction: { role: 'system', parts: [{ text: 'Be brief.' }] }, tools });
    expect(withBoth.status).toBe(200);
    expect((await read<{ totalTokens: number }>(withBoth)).totalTokens).toBeGreaterThan(plain.totalTokens);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tools: { functionDeclarations: [] } }, 'tools'],
      [{ systemInstruction: 'Be brief.' }, 'systemInstruction'],
    ];
    for (const [extra, field] of cases) {
      const response = await post('gemini-2.5-flash:countTokens', { ...HELLO, ...extra });
      expect(response.status, field).toBe(400);
      const body = await read<ErrorBody>(response);
      expect(body.error, field).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(body.error.message, field).toContain(field);
    }
  });
});

describe('generate-content bodies', () => {
  it('reads the snake_case spelling of the vendor curl examples', async () => {
    const response = await post('gemini-2.5-flash:generateContent', {
      system_instruction: { parts: [{ text: 'You are a librarian.' }] },
      contents: [{ role: 'user', parts: [{ text: 'What is this?' }, { inline_data: { mime_type: 'application/pdf', data: 'JVBERi0xLjQK' } }] }],
      generation_config: { max_output_tokens: 50 },
    });
    expect(response.status).toBe(200);
    expect(textOf(await read<GenerateResponse>(response))).toBe('A document, then.');
  });

  it('refuses inlineData that is not base64, or not a media type, naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ mimeType: 'image/png', data: 'not base64!' }, 'contents[0].parts[1].inlineData.data'],
      [{ mimeType: 'image/png', data: '' }, 'contents[0].parts[1].inlineData.data'],
      [{ mimeType: 'application/zip', data: PNG }, 'contents[0].parts[1].inlineData.mimeType'],
    ];
    for (const [inlineData, field] of cases) {
      const response = await post('gemini-2.5-flash:generateContent', {
        contents: [{ role: 'user', parts: [{ text: 'Look' }, { inlineData }] }],
      });
      expect(response.status).toBe(400);
      const body = await read<ErrorBody>(response);
      expect(body.error.status).toBe('INVALID_ARGUMENT');
      expect(body.error.message).toContain(field);
    }
  });

  it('refuses a fileData part with a 400 that says media must be inline', async () => {
    const response = await post('gemini-2.5-flash:generateContent', {
      contents: [{ role: 'user', parts: [{ file_data: { file_uri: 'https://example.com/a.pdf', mime_type: 'application/pdf' } }] }],
    });
    expect(response.status).toBe(400);
    expect((await read<ErrorBody>(response)).error.message).toMatch(/must be sent inline as base64.*inlineData/);
  });

  it('answers a body that is not JSON with 400 INVALID_ARGUMENT', async () => {
    const response = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
      body: '{"contents": [',
    });
    expect(response.status).toBe(400);
    expect((await read<ErrorBody>(response)).error.status).toBe('INVALID_ARGUMENT');
  });
});

describe('generate-content streams on the wire', () => {
  it('sends SSE with one data line per event, no [DONE], and a blank line at the end', async () => {
    const response = await post('gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text.endsWith('\n\n')).toBe(true);
    const events = text.slice(0, -2).split('\n\n');
    expect(events.length).toBeGreaterThan(2);
    for (const event of events) {
      expect(event.split('\n')).toHaveLength(1);
      expect(event.startsWith('data: ')).toBe(true);
      expect(() => JSON.parse(event.slice(6))).not.toThrow();
    }
    expect(text).not.toContain('[DONE]');
    expect(text).not.toMatch(/^event:/m);
  });

  it('streams one JSON array without alt=sse, joining to the whole reply', async () => {
    const whole = await read<GenerateResponse>(await post('gemini-2.5-flash:generateContent'));
    const response = await post('gemini-2.5-flash:streamGenerateContent');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const chunks = JSON.parse(await response.text()) as GenerateResponse[];
    expect(Array.isArray(chunks)).toBe(true);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.map((c) => c.candidates[0]!.content.parts?.[0]?.text ?? '').join('')).toBe(textOf(whole));
    expect(chunks.at(-1)!.usageMetadata).toEqual(whole.usageMetadata);
  });

  it('streams every candidate of candidateCount, each ending with its own finishReason', async () => {
    const body = { ...HELLO, generationConfig: { candidateCount: 2 } };
    const whole = await read<GenerateResponse>(await post('gemini-2.5-flash:generateContent', body));
    const chunks = JSON.parse(await (await post('gemini-2.5-flash:streamGenerateContent', body)).text()) as GenerateResponse[];
    for (const index of [0, 1]) {
      const own = chunks.map((c) => c.candidates[0]!).filter((c) => c.index === index);
      expect(own.map((c) => c.content.parts?.[0]?.text ?? '').join('')).toBe(whole.candidates[index]!.content.parts![0]!.text);
      expect(own.map((c) => c.finishReason).filter(Boolean)).toEqual(['STOP']);
      expect(own.at(-1)!.finishReason).toBe('STOP');
    }
  });
});
