// Malformed uploads and batch requests: each is a 4xx in the endpoint's envelope naming the line
// or the field, and the mock keeps serving. Raw multipart and JSON bodies, since the SDKs refuse
// to send most of these.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { batchFile, chatLines } from './helpers.js';

let server: TestServer;
const SESSION = { 'x-mock-session': 'refusals', authorization: 'Bearer sk-test' };

beforeAll(async () => {
  server = await startTestServer({ clock: 'manual', sessionMemoryLimit: '1mb' });
});
afterAll(() => server.close());

interface Refusal {
  status: number;
  param: string | null;
  message: string;
}

async function refusal(response: Response): Promise<Refusal> {
  const body = (await response.json()) as { error: { message: string; param?: string | null } };
  return { status: response.status, param: body.error.param ?? null, message: body.error.message };
}

function form(fields: Record<string, string>, files: Array<[string, string | Buffer, string]> = []): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  for (const [name, content, filename] of files) data.append(name, new Blob([content]), filename);
  return data;
}

type Case = [name: string, attempt: () => Promise<Refusal>, status: number, param: string | null, message: RegExp];

/** One test per case: the attempt answers `status`, naming `param` and saying `message`. */
function refusesEach(cases: Case[]): void {
  it.each(cases)('refuses %s', async (_name, attempt, status, param, message) => {
    const answer = await attempt();
    expect(answer.status).toBe(status);
    expect(answer.param).toBe(param);
    expect(answer.message).toMatch(message);
  });
}

const upload = async (body: FormData | string, headers: Record<string, string> = {}) =>
  refusal(await fetch(`${server.url}/v1/files`, { method: 'POST', headers: { ...SESSION, ...headers }, body }));
const uploadBatch = (text: string) => upload(form({ purpose: 'batch' }, [['file', text, 'in.jsonl']]));

const line = (fields: Record<string, unknown>) => JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini' }, ...fields });
const good = batchFile(chatLines(1)).trim();

describe('uploads', () => {
  const cases: Case[] = [
    ['a JSON body', () => upload(JSON.stringify({ purpose: 'batch' }), { 'content-type': 'application/json' }), 400, 'file', /multipart/],
    ['no file', () => upload(form({ purpose: 'batch' })), 400, 'file', /file/],
    ['no purpose', () => upload(form({}, [['file', good, 'in.jsonl']])), 400, 'purpose', /purpose/],
    ['an unknown purpose', () => upload(form({ purpose: 'batch_output' }, [['file', good, 'in.jsonl']])), 400, 'purpose', /purpose/],
    ['two files', () => upload(form({ purpose: 'batch' }, [['file', good, 'a.jsonl'], ['file', good, 'b.jsonl']])), 400, 'file', /one file/],
    ['a bad expires_after anchor', () => upload(form({ purpose: 'vision', 'expires_after[anchor]': 'now', 'expires_after[seconds]': '3600' }, [['file', 'x', 'x.png']])), 400, 'expires_after.anchor', /anchor/],
    ['expires_after under an hour', () => upload(form({ purpose: 'vision', 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '60' }, [['file', 'x', 'x.png']])), 400, 'expires_after.seconds', /seconds/],
    ['an empty batch file', () => uploadBatch(''), 400, 'file', /empty/],
    // Counted as the lines are cut: the 50,001st ends the reading, whatever follows.
    ['more lines than a batch takes', () => uploadBatch('\n'.repeat(60_000)), 400, 'file', /at most 50000 requests; this one has more lines/],
    ['a line that is not JSON', () => uploadBatch(`${good}\n{"custom_id": `), 400, 'file', /Line 2 .*not valid JSON/],
    ['a line that is a list', () => uploadBatch(`${good}\n[1,2]`), 400, 'file', /Line 2 .*JSON object/],
    ['a blank line', () => uploadBatch(`${good}\n\n${line({ custom_id: 'b' })}`), 400, 'file', /Line 2 /],
    ['no custom_id', () => uploadBatch(line({ custom_id: undefined })), 400, 'custom_id', /Line 1 .*custom_id/],
    ['an empty custom_id', () => uploadBatch(line({ custom_id: '' })), 400, 'custom_id', /Line 1 .*custom_id/],
    ['a repeated custom_id', () => uploadBatch(`${line({ custom_id: 'x' })}\n${line({})}\n${line({ custom_id: 'x' })}`), 400, 'custom_id', /Line 3 .*repeats the custom_id 'x'/],
    ['method GET', () => uploadBatch(line({ method: 'GET' })), 400, 'method', /Line 1 .*"POST"/],
    ['no url', () => uploadBatch(line({ url: undefined })), 400, 'url', /Line 1 .*url/],
    ['a url that is not a path', () => uploadBatch(line({ url: 'chat/completions' })), 400, 'url', /Line 1 .*url/],
    ['no body', () => uploadBatch(line({ body: undefined })), 400, 'body', /Line 1 .*body/],
    ['a body that is a string', () => uploadBatch(line({ body: 'hello' })), 400, 'body', /Line 1 .*body/],
    ['a body nested too deep', () => uploadBatch(line({ body: JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`) })), 400, 'body', /Line 1 .*too deeply/],
    ['a file past the session budget', () => upload(form({ purpose: 'user_data' }, [['file', Buffer.alloc(1200 * 1024), 'big.bin']])), 413, null, /--session-memory-limit/],
  ];
  refusesEach(cases);
});

describe('batches', () => {
  let batchFileId = '';
  let otherFileId = '';
  beforeAll(async () => {
    const post = async (purpose: string, text: string) =>
      ((await (await fetch(`${server.url}/v1/files`, { method: 'POST', headers: SESSION, body: form({ purpose }, [['file', text, 'f.jsonl']]) })).json()) as { id: string }).id;
    batchFileId = await post('batch', good);
    otherFileId = await post('user_data', good);
  });
  const create = async (body: unknown) =>
    refusal(await fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { ...SESSION, 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const valid = () => ({ input_file_id: batchFileId, endpoint: '/v1/chat/completions', completion_window: '24h' });
  const get = async (path: string, method = 'GET') => refusal(await fetch(`${server.url}${path}`, { method, headers: SESSION }));
  const cases: Case[] = [
    ['no input_file_id', () => create({ ...valid(), input_file_id: undefined }), 400, 'input_file_id', /input_file_id/],
    ['an unknown input_file_id', () => create({ ...valid(), input_file_id: 'file-nope' }), 404, 'input_file_id', /file-nope/],
    ['a file uploaded for another purpose', () => create({ ...valid(), input_file_id: otherFileId }), 400, 'input_file_id', /purpose 'user_data'/],
    ['an endpoint batches do not take', () => create({ ...valid(), endpoint: '/v1/audio/speech' }), 400, 'endpoint', /endpoint/],
    ['a 48h window', () => create({ ...valid(), completion_window: '48h' }), 400, 'completion_window', /completion_window/],
    ['metadata that is not strings', () => create({ ...valid(), metadata: { n: 1 } }), 400, 'metadata.n', /metadata/],
    ['metadata of 17 keys', () => create({ ...valid(), metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }), 400, 'metadata', /16 keys/],
    ['an unknown field', () => create({ ...valid(), priority: 'high' }), 400, null, /priority/],
    ['a body that is a list', () => create([valid()]), 400, null, /JSON object/],
    ['an unknown batch', () => get('/v1/batches/batch_nope'), 404, 'batch_id', /batch_nope/],
    ['a cancel of an unknown batch', () => get('/v1/batches/batch_nope/cancel', 'POST'), 404, 'batch_id', /batch_nope/],
    ['a batch list limit over 100', () => get('/v1/batches?limit=101'), 400, 'limit', /limit/],
    ['a file list order that is neither', () => get('/v1/files?order=up'), 400, 'order', /order/],
    ['a file list cursor of no file', () => get('/v1/files?after=file-nope'), 400, 'after', /file-nope/],
    ['content of an unknown file', () => get('/v1/files/file-nope/content'), 404, 'file_id', /file-nope/],
    ['a delete of an unknown file', () => get('/v1/files/file-nope', 'DELETE'), 404, 'file_id', /file-nope/],
  ];
  refusesEach(cases);

  it("takes each endpoint the vendor's batches may name, and no other model endpoint", async () => {
    const status = async (endpoint: string) =>
      (await fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { ...SESSION, 'content-type': 'application/json' }, body: JSON.stringify({ ...valid(), endpoint }) })).status;
    for (const endpoint of ['/v1/chat/completions', '/v1/responses', '/v1/embeddings', '/v1/completions', '/v1/moderations']) expect(await status(endpoint)).toBe(200);
    for (const endpoint of ['/v1/messages', '/v1/responses/input_tokens', '/v1/rerank']) expect(await status(endpoint)).toBe(400);
  });
});

describe('message batches', () => {
  const headers = { ...SESSION, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
  const create = async (body: unknown, extra: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}/v1/messages/batches`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    const answer = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(answer.type).toBe('error');
    return { status: response.status, message: answer.error.message };
  };
  const request = (fields: Record<string, unknown> = {}) => ({ custom_id: 'one', params: { model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }, ...fields });
  const cases: Array<[string, () => Promise<{ status: number; message: string }>, number, RegExp]> = [
    ['no requests', () => create({}), 400, /^requests:/],
    ['no request in the list', () => create({ requests: [] }), 400, /^requests: .*at least 1/],
    ['a custom_id with a space', () => create({ requests: [request({ custom_id: 'two words' })] }), 400, /^requests\.0\.custom_id:/],
    ['a repeated custom_id', () => create({ requests: [request(), request()] }), 400, /^requests\.1\.custom_id: Duplicate/],
    ['a request without params', () => create({ requests: [request({ params: undefined })] }), 400, /^requests\.0\.params:/],
    ['a request that streams', () => create({ requests: [request({ params: { ...request().params, stream: true } })] }), 400, /^requests\.0\.params\.stream:/],
    ['a request that is not an object', () => create({ requests: ['hi'] }), 400, /^requests\.0:/],
    ['no anthropic-version', () => create({ requests: [request()] }, { 'anthropic-version': '' }), 400, /anthropic-version/],
  ];
  it.each(cases)('refuses %s', async (_name, attempt, status, message) => {
    const answer = await attempt();
    expect(answer.status).toBe(status);
    expect(answer.message).toMatch(message);
  });

  it('refuses results and deletion before a batch ends, and an unknown id', async () => {
    const made = (await (await fetch(`${server.url}/v1/messages/batches`, { method: 'POST', headers, body: JSON.stringify({ requests: [request()] }) })).json()) as { id: string };
    for (const [path, method] of [[`/v1/messages/batches/${made.id}/results`, 'GET'], [`/v1/messages/batches/${made.id}`, 'DELETE']] as const) {
      const response = await fetch(`${server.url}${path}`, { method, headers });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/must end or be cancelled/);
    }
    const unknown = await fetch(`${server.url}/v1/messages/batches/msgbatch_nope`, { headers });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { type: string } }).error.type).toBe('not_found_error');
  });
});
