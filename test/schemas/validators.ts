// The pinned vendor schemas (test/data/schemas, see its README) loaded into one Ajv, with the
// deliberate differences applied, and a validator per schema name such as `openai:Response`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { DIFFERENCES, type Vendor } from './differences.js';

const DIRECTORY = join(import.meta.dirname, '..', 'data', 'schemas');

/** Where each vendor file keeps its named schemas. */
const FILES: Record<Vendor, { file: string; pointer: string }> = {
  openai: { file: 'openai.json', pointer: '#/components/schemas/' },
  anthropic: { file: 'anthropic.json', pointer: '#/definitions/' },
  'google-genai': { file: 'google-genai.json', pointer: '#/definitions/' },
  'google-wire': { file: 'google-wire.json', pointer: '#/definitions/' },
  gateway: { file: 'gateway.json', pointer: '#/definitions/' },
  documented: { file: 'documented.json', pointer: '#/definitions/' },
};

export type SchemaName = `${Vendor}:${string}`;

/** Differences whose patch found nothing to loosen: stale entries, reported by the test. */
export const stalePatches: string[] = [];

function load(vendor: Vendor): Record<string, unknown> {
  const { $schema: _draft, ...document } = JSON.parse(readFileSync(join(DIRECTORY, FILES[vendor].file), 'utf8')) as Record<string, unknown>;
  for (const difference of DIFFERENCES) {
    if (difference.vendor === vendor && difference.patch && !difference.patch(document)) stalePatches.push(`${vendor} ${difference.where}`);
  }
  return { ...document, $id: vendor };
}

// The OpenAPI document is 3.1 (JSON Schema 2020-12) and the others draft-07 kept to keywords both
// drafts read alike. Formats and OpenAPI's own keywords (discriminator, nullable) are not checked.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.removeKeyword('nullable');
const documents = new Map<Vendor, Record<string, unknown>>();
for (const vendor of Object.keys(FILES) as Vendor[]) {
  const document = load(vendor);
  documents.set(vendor, document);
  ajv.addSchema(document);
}

const compiled = new Map<SchemaName, ValidateFunction>();

type Node = Record<string, unknown>;

function named(vendor: Vendor, type: string): Node | undefined {
  const document = documents.get(vendor)!;
  const all = (document.definitions ?? (document.components as Node).schemas) as Record<string, Node>;
  return all[type];
}

/** The `type` values a named schema admits (`const` or a one-value `enum`). */
function typeTag(vendor: Vendor, type: string): unknown {
  const tag = (named(vendor, type)?.properties as Record<string, Node> | undefined)?.type;
  return tag?.const ?? (Array.isArray(tag?.enum) && tag.enum.length === 1 ? tag.enum[0] : undefined);
}

/**
 * For a union of typed members (a stream event), the member whose `type` the data names, so a
 * failure reports that member's problems rather than every member's.
 */
export function narrowed(name: SchemaName, data: unknown): SchemaName {
  const [vendor, type] = name.split(':') as [Vendor, string];
  const members = (named(vendor, type)?.anyOf ?? named(vendor, type)?.oneOf) as Node[] | undefined;
  const tag = (data as { type?: unknown } | null)?.type;
  const prefix = FILES[vendor].pointer;
  for (const member of members ?? []) {
    const ref = typeof member.$ref === 'string' && member.$ref.startsWith(prefix) ? member.$ref.slice(prefix.length) : undefined;
    if (ref && tag !== undefined && typeTag(vendor, ref) === tag) return `${vendor}:${ref}`;
  }
  return name;
}

export function validatorFor(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    const [vendor, type] = name.split(':') as [Vendor, string];
    validate = ajv.compile({ $ref: `${vendor}${FILES[vendor].pointer}${type}` });
    compiled.set(name, validate);
  }
  return validate;
}

/** Ajv's errors, shortened to what a failing test needs to show. */
export function problems(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
