// What a row's sample is: a request a user could send it, keyed by `METHOD path` as its table
// writes the row, and what the user should see come back. The seam runner (test/helpers/
// sample-seam.ts) and the bad-input fuzzer (test/hardening/sampled-routes.ts) both read them.
import type { Upload } from '../../../src/media/upload.js';

/** The JSON an earlier sample was answered with: an id to take, a URL to follow. */
export type Made = Readonly<Record<string, unknown>>;

export interface SampleRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A JSON body, or a multipart form's fields (nested as the form's bracketed names are). */
  body?: unknown;
  /** A multipart body's files by field, as the shell hands them to the operation. */
  uploads?: Record<string, Upload[]>;
}

export interface RouteSample {
  /** What sets this sample apart when its row has more than one (generate-content's actions). */
  label?: string;
  /**
   * A row whose first sample runs before this one, in the same session: this request is then
   * made from its answer (an id, a URL). The chain may go on (a batch needs a file).
   */
  after?: string;
  /** Mock time that passes between the setup and this request (a video to finish, a batch to end). */
  waitMs?: number;
  request: SampleRequest | ((made: Made) => SampleRequest);
  status: number;
  /** The model the answer notes (null for the rows that name none). */
  model?: string | null;
  /** `x-mock-source` as `sourceOf` names it: `generated`, `fixture:NAME`. */
  source?: string;
}

/** A door's samples: the door's name as the journal gives it, and one or more samples per row. */
export interface DoorSamples {
  door: string;
  rows: Readonly<Record<string, RouteSample | readonly RouteSample[]>>;
}

/** A made object's string at `key`, or a failure naming what the setup answered instead. */
export function textAt(made: unknown, key: string): string {
  const value = made !== null && typeof made === 'object' ? (made as Record<string, unknown>)[key] : undefined;
  if (typeof value !== 'string') throw new Error(`The setup answered no ${key}: ${JSON.stringify(made).slice(0, 300)}`);
  return value;
}

/** The first item of a made list (`data`, `requests`). */
export function firstOf(made: Made, key: string): unknown {
  const list = made[key];
  if (!Array.isArray(list) || list.length === 0) throw new Error(`The setup answered no ${key}: ${JSON.stringify(made).slice(0, 300)}`);
  return list[0];
}

export const idOf = (made: Made): string => textAt(made, 'id');
