// A batch's requests as the vendors take them: the lines of an OpenAI `batch` file (JSONL, each
// `{ custom_id, method: "POST", url, body }`) and the `requests[]` of an Anthropic message batch
// (`{ custom_id, params }`). Each request is checked on its own, so a caller can read thousands
// in slices; a problem is a 400 naming the line (from 1) or the index and field.
import { invalid } from '../conversation/errors.js';
import { tooDeepToParse } from '../conversation/json-text.js';
import type { BatchLine, LineError } from '../conversation/batch.js';

/** The vendors' bound: at most 50,000 requests a batch. */
export const MAX_BATCH_REQUESTS = 50_000;
/** What an Anthropic `custom_id` may be. */
const ANTHROPIC_CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The lines of a file, without the empty one after a final newline. They are counted as they are
 * cut, so a file of more lines than a batch takes is refused after 50,001 of them: splitting 50 MB
 * of newlines at once made 50 million strings (913 MB) before the count refused them.
 */
export function fileLines(data: Buffer): string[] {
  const lines: string[] = [];
  for (let start = 0; start < data.length || lines.length === 0; ) {
    const newline = data.indexOf(0x0a, start);
    const end = newline === -1 ? data.length : newline;
    if (lines.length === MAX_BATCH_REQUESTS) throw invalid(`A batch file holds at most ${MAX_BATCH_REQUESTS} requests; this one has more lines.`, 'file');
    lines.push(data.toString('utf8', start, end));
    // A newline ending the data leaves no empty line after it.
    start = end + 1;
  }
  return lines;
}

/** One line of a `batch` file, numbered from 1; `seen` collects the custom ids so far. */
export function batchFileLine(text: string, number: number, seen: Set<string>): BatchLine {
  const at = (what: string, field = 'file') => invalid(`Line ${number} of the batch file ${what}.`, field);
  const json = text.endsWith('\r') ? text.slice(0, -1) : text;
  // As its body is refused once parsed (files.ts), a long line before: parsing it would hold the loop.
  if (tooDeepToParse(json)) throw at('nests its body too deeply', 'body');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw at(`is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw at('must be a JSON object with custom_id, method, url and body');
  const { custom_id: customId, method, url, body } = parsed;
  if (typeof customId !== 'string' || customId === '') throw at("needs 'custom_id', a non-empty string", 'custom_id');
  if (seen.has(customId)) throw at(`repeats the custom_id '${customId}'; each must be unique`, 'custom_id');
  if (method !== 'POST') throw at(`needs 'method' to be "POST", got ${JSON.stringify(method) ?? 'nothing'}`, 'method');
  if (typeof url !== 'string' || !url.startsWith('/')) throw at("needs 'url', the path of the endpoint it calls (starting with /)", 'url');
  if (!isObject(body)) throw at("needs 'body', a JSON object (the request)", 'body');
  seen.add(customId);
  return { customId, url, body, size: text.length, text: json };
}

/** One entry of an Anthropic `requests[]`, its index from 0. */
/** `url`: the path the message batch's requests are answered at. */
export function messageBatchRequest(entry: unknown, index: number, seen: Set<string>, url: string): BatchLine {
  const field = (name: string) => `requests.${index}${name ? `.${name}` : ''}`;
  if (!isObject(entry)) throw invalid(`${field('')}: Input should be an object with custom_id and params`, field(''));
  const { custom_id: customId, params } = entry;
  if (typeof customId !== 'string' || !ANTHROPIC_CUSTOM_ID.test(customId)) {
    throw invalid(`${field('custom_id')}: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`, field('custom_id'));
  }
  if (seen.has(customId)) throw invalid(`${field('custom_id')}: Duplicate custom_id '${customId}'; each must be unique in a batch`, field('custom_id'));
  if (!isObject(params)) throw invalid(`${field('params')}: Input should be an object (a Messages API request)`, field('params'));
  if (params.stream === true) throw invalid(`${field('params.stream')}: Streaming is not supported in a message batch`, field('params.stream'));
  seen.add(customId);
  return { customId, url, body: params, size: JSON.stringify(params).length };
}

/** Lines whose `url` is not the batch's endpoint: the batch fails at validation, naming each. */
export function mismatchedLines(lines: readonly BatchLine[], endpoint: string): LineError[] {
  const problems: LineError[] = [];
  lines.forEach((line, index) => {
    if (line.url === endpoint) return;
    problems.push({
      code: 'invalid_url',
      message: `The URL of line ${index + 1} (${line.url}) does not match the batch's endpoint (${endpoint}).`,
      param: 'url',
      line: index + 1,
    });
  });
  return problems;
}
