// A file of a session (`/v1/files`): what a client uploaded, or an output or error file one of
// its batches wrote.

/** The purposes a client uploads with, as the vendor lists them. */
export const UPLOAD_PURPOSES = ['batch', 'assistants', 'fine-tune', 'vision', 'user_data', 'evals'] as const;
export type FilePurpose = (typeof UPLOAD_PURPOSES)[number] | 'batch_output';

export interface StoredFile {
  id: string;
  filename: string;
  purpose: FilePurpose;
  createdMs: number;
  data: Buffer;
}
