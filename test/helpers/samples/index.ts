// Every row's samples, by `METHOD path` as the route tables write the rows, with the door each
// belongs to, and the config they are answered with (the scenario PUT /__admin/scenario names).
import { ADMIN_SAMPLES } from './admin.js';
import { BATCH_SAMPLES } from './batches.js';
import { BEDROCK_SAMPLES } from './bedrock.js';
import { CHAT_SAMPLES } from './chat.js';
import { DOOR_SAMPLES } from './doors.js';
import { MEDIA_SAMPLES } from './media.js';
import { PROVIDER_SAMPLES } from './providers.js';
import type { RouteSample } from './sample.js';

export interface RowSamples {
  /** `METHOD path`, the row's key. */
  key: string;
  door: string;
  samples: readonly RouteSample[];
}

export const SAMPLE_SCENARIOS = { 'calm.yaml': 'scenarios:\n  - name: flaky\n    steps: [pass]\n' };

export const ROW_SAMPLES: readonly RowSamples[] = [...CHAT_SAMPLES, BEDROCK_SAMPLES, ...DOOR_SAMPLES, ...MEDIA_SAMPLES, ...BATCH_SAMPLES, ...PROVIDER_SAMPLES, ADMIN_SAMPLES].flatMap((group) =>
  Object.entries(group.rows).map(([key, samples]) => ({ key, door: group.door, samples: Array.isArray(samples) ? samples : [samples as RouteSample] })),
);

/** The sample `after` names: a row's first, or the one of a label (`POST /v1/images/generations#as a URL`). */
export function sampleNamed(name: string): { key: string; sample: RouteSample } {
  const [key, label] = name.split('#') as [string, string | undefined];
  const row = ROW_SAMPLES.find((found) => found.key === key);
  const sample = label === undefined ? row?.samples[0] : row?.samples.find((found) => found.label === label);
  if (!sample) throw new Error(`No sample ${name}.`);
  return { key, sample };
}

export const isAdminKey = (key: string): boolean => key.split(' ')[1]!.startsWith('/__admin');
