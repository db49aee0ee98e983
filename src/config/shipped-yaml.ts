// The package's own fixtures and scenarios as data, parsed when the package was built
// (scripts/shipped-yaml.mjs writes dist/shipped-yaml.json with `parseYaml`, the parse every file
// gets): a start on the shipped files, or on copies of them, skips parsing them again. yaml's
// parser, not yet compiled by the JIT, took 40 of the 80 ms the shipped files cost every start.
// The build checks each against its directory's schema too and keeps what the check gave: read
// from a directory of that kind, the file is not checked again (the check was about a quarter of
// the zod work of a start). A text is known by its length and SHA-256; any other text, or no
// snapshot (sources not built), is parsed and checked as usual. The patterns the build compiled
// for a file are noted as known when the file is met, so they compile at their first run.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { knowPatterns } from '../conversation/pattern-work.js';
import { packageFile } from '../package-root.js';

/** One shipped file: its text's length and SHA-256, and its data as JSON. */
export interface ShippedYaml {
  length: number;
  sha256: string;
  json: string;
  /** The directory it ships in, and its data as that kind's schema checked it, as JSON. */
  checked?: { kind: 'fixtures' | 'scenarios'; json: string };
  /** The named groups of each pattern its compile made, by flags and source (`knowPatterns`). */
  patterns?: Record<string, readonly string[]>;
}

export const SHIPPED_YAML_FILE = packageFile('dist', 'shipped-yaml.json');

export function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The build's snapshot; none when the package was not built (its sources under a test runner). */
export function readShippedYaml(): ShippedYaml[] {
  return existsSync(SHIPPED_YAML_FILE) ? (JSON.parse(readFileSync(SHIPPED_YAML_FILE, 'utf8')) as ShippedYaml[]) : [];
}

let byLength: Map<number, ShippedYaml[]> | undefined;

function snapshot(): Map<number, ShippedYaml[]> {
  const known = new Map<number, ShippedYaml[]>();
  for (const file of readShippedYaml()) known.set(file.length, [...(known.get(file.length) ?? []), file]);
  return known;
}

/** The snapshot's entry for `text` if it is one of the shipped files, byte for byte. */
export function shippedFile(text: string): ShippedYaml | undefined {
  const candidates = (byLength ??= snapshot()).get(text.length);
  if (!candidates) return undefined;
  const digest = digestOf(text);
  const found = candidates.find((file) => file.sha256 === digest);
  if (found?.patterns) knowPatterns(found.patterns);
  return found;
}

/** The data of `text` if it is one of the shipped files, byte for byte; a fresh copy each time. */
export function shippedData(text: string): unknown {
  const found = shippedFile(text);
  return found && JSON.parse(found.json);
}
