// Files, OpenAI form (`/v1/files`): upload, list, retrieve, download and delete, in the session. A
// `batch` file is read as JSONL at upload, in slices, and refused naming its first bad line.
import * as z from 'zod';
import { madeAtFirstUse } from '../conversation/first-use.js';
import { failure, invalid } from '../conversation/errors.js';
import { batchFileLine, fileLines } from '../media/batch-input.js';
import type { BatchLine } from '../conversation/batch.js';
import { forgetFile, keepFile } from '../state/pinned.js';
import type { Session } from '../state/session.js';
import { UPLOAD_PURPOSES, type StoredFile } from '../conversation/stored-file.js';
import { fileObject } from '../styles/batches/openai.js';
import { measureBody } from '../styles/body-shape.js';
import { formInt } from '../styles/form.js';
import { parseBody } from '../styles/validate.js';
import { json } from './exchange.js';
import { plainOperation } from './operation.js';
import { pageAfter } from './pages.js';
import { nextId } from './request.js';
import { Slice } from '../state/event-loop.js';

/**
 * Reads a batch file's lines, giving other clients the loop every few hundred; a bad line is a
 * 400 naming it. Each line kept holds its text, not its parsed request; `keep` false (an upload,
 * which only checks) keeps none.
 */
export async function readBatchFile(data: Buffer, keep = true): Promise<BatchLine[]> {
  const texts = fileLines(data);
  if (texts.length === 1 && texts[0]!.trim() === '') throw invalid('The batch file is empty: it needs one request per line.', 'file');
  const seen = new Set<string>();
  const lines: BatchLine[] = [];
  const slice = new Slice();
  for (let index = 0; index < texts.length; index += 1) {
    if (slice.over) await slice.next();
    const line = batchFileLine(texts[index]!, index + 1, seen);
    if (!measureBody(line.body).withinDepth) throw invalid(`Line ${index + 1} of the batch file nests its body too deeply.`, 'body');
    if (keep) lines.push({ customId: line.customId, url: line.url, body: null, size: line.size, text: line.text });
  }
  return lines;
}

/** Made at the first upload: a start that serves none builds none. */
const uploadForm = madeAtFirstUse(() =>
  z.looseObject({
    purpose: z.enum(UPLOAD_PURPOSES),
    expires_after: z.strictObject({ anchor: z.literal('created_at'), seconds: formInt(3600, 2_592_000) }).optional(),
  }),
);

export const createFile = plainOperation(async (mock, exchange) => {
  if (!exchange.multipart) {
    throw invalid("Upload a file as multipart/form-data with the fields 'file' and 'purpose'.", 'file', 'invalid_content_type');
  }
  const form = parseBody(uploadForm(), exchange.body ?? {});
  const uploads = exchange.uploads.get('file') ?? [];
  if (uploads.length !== 1) {
    throw invalid(uploads.length === 0 ? "Missing required parameter: 'file'." : "'file' takes one file.", 'file', uploads.length === 0 ? 'missing_required_parameter' : 'invalid_value');
  }
  const upload = uploads[0]!;
  if (form.purpose === 'batch') await readBatchFile(upload.data, false);
  const file: StoredFile = {
    id: `file-${nextId(mock, exchange.session).slice(0, 22)}`,
    filename: upload.filename,
    purpose: form.purpose,
    createdMs: mock.clock.now(),
    data: upload.data,
  };
  keepFile(exchange.session, file);
  return json(fileObject(file));
});

/** The session's file, or a 404 naming the field that named it. */
export function findFile(session: Session, id: string, field = 'file_id'): StoredFile {
  const file = session.files.get(id);
  if (!file) throw failure('file_not_found', `No such File object: ${id}`, { param: field });
  return file;
}

const listQuery = madeAtFirstUse(() =>
  z.looseObject({
    purpose: z.string().optional(),
    after: z.string().min(1).optional(),
    limit: formInt(1, 10_000).optional(),
    order: z.enum(['asc', 'desc']).optional(),
  }),
);

export const listFiles = plainOperation((_mock, exchange) => {
  const query = parseBody(listQuery(), { ...exchange.query });
  let files = [...exchange.session.files.values()].filter((file) => query.purpose === undefined || file.purpose === query.purpose);
  if ((query.order ?? 'desc') === 'desc') files = files.reverse();
  const page = pageAfter(files, query.after, query.limit ?? 10_000, 'after');
  const data = page.items.map(fileObject);
  return json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.hasMore });
});

export const retrieveFile = plainOperation((_mock, exchange) => json(fileObject(findFile(exchange.session, exchange.params.id!))));

export const fileContent = plainOperation((_mock, exchange) => {
  const file = findFile(exchange.session, exchange.params.id!);
  return { plan: { kind: 'binary', status: 200, headers: {}, contentType: 'application/octet-stream', data: file.data } };
});

export const deleteFile = plainOperation((_mock, exchange) => {
  const file = findFile(exchange.session, exchange.params.id!);
  forgetFile(exchange.session, file.id);
  return json({ id: file.id, object: 'file', deleted: true });
});
