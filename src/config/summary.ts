// The start-up line that says what was loaded: files, fixtures over every section, scenarios,
// models of the catalog, and whether keys are required.
import type { Config } from './types.js';

const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function summarize(config: Config): string {
  const fixtures = config.chat.length + config.images.length + config.videos.length + config.embeddings.length + config.moderations.length;
  const mode = config.keys ? 'keyed mode' : 'open mode';
  return `loaded ${counted(config.files.length, 'file')}: ${counted(fixtures, 'fixture')}, ${counted(config.scenarios.size, 'scenario')}, ${counted(config.models.length, 'model')}; ${mode}`;
}
