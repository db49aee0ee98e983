// The start-up lines that say what was loaded (files, fixtures over every section, scenarios,
// models of the catalog, whether keys are required) and which modes change what answers.
import type { Config } from './types.js';

const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The sections of fixtures files, as `GET /__admin/fixtures` lists them and the start line counts them. */
export const FIXTURE_SECTIONS = ['chat', 'images', 'videos', 'embeddings', 'moderations', 'transcriptions'] as const;

export function summarize(config: Config): string {
  const fixtures = FIXTURE_SECTIONS.reduce((sum, section) => sum + config[section].length, 0);
  const mode = config.keys ? 'keyed mode' : 'open mode';
  return `loaded ${counted(config.files.length, 'file')}: ${counted(fixtures, 'fixture')}, ${counted(config.scenarios.size, 'scenario')}, ${counted(config.models.length, 'model')}; ${mode}`;
}

export interface Modes {
  upstream?: string;
  record?: string;
  drift?: boolean;
  clock?: string;
  otlpEndpoint?: string;
  tlsCa?: string;
}

/** Each mode that changes what answers, for the line after the summary; undefined when none is on. */
export function modesOf(modes: Modes): string | undefined {
  const on = [
    modes.upstream && `upstream ${modes.upstream}`,
    modes.record && `recording into ${modes.record}`,
    modes.drift && 'live drift',
    modes.clock && modes.clock !== 'real' && `clock ${modes.clock}`,
    modes.otlpEndpoint && `OTLP spans to ${modes.otlpEndpoint}`,
    // Last, so `tls ca PATH` ends the line as scripts that pick the path out expect.
    modes.tlsCa && `tls ca ${modes.tlsCa}`,
  ].filter((mode): mode is string => typeof mode === 'string' && mode !== '');
  return on.length === 0 ? undefined : `modes: ${on.join('; ')}`;
}
