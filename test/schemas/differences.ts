// Every deliberate difference between the mock's wire and the vendors' schemas, in one place with
// its reason. Each either patches the pinned schema before validation (so the check stays strict
// about everything else) or records what a schema cannot see. Delete an entry when it stops
// being true; the schema test fails on an entry whose patch no longer finds its target.

export type Vendor = 'openai' | 'anthropic' | 'google-genai' | 'google-wire' | 'gateway' | 'documented';

type SchemaDocument = Record<string, unknown>;

export interface Difference {
  vendor: Vendor;
  /** The schema and field it is about. */
  where: string;
  why: string;
  /** Loosens the pinned schema; returns false when the target is gone (the entry is stale). */
  patch?(document: SchemaDocument): boolean;
}

type Node = Record<string, unknown>;

function definitionsOf(document: SchemaDocument): Record<string, Node> {
  return (document.definitions ?? (document.components as Node | undefined)?.schemas) as Record<string, Node>;
}

/** Lets the named fields of a schema be absent; false when one of them is no longer required. */
function omittable(document: SchemaDocument, schema: string, fields: string[]): boolean {
  const target = definitionsOf(document)[schema];
  const required = target?.required as string[] | undefined;
  if (!required || !fields.every((field) => required.includes(field))) return false;
  target!.required = required.filter((field) => !fields.includes(field));
  return true;
}

/** Lets `property` of the named schema also be null; false when the schema or property is gone. */
function alsoNull(document: SchemaDocument, schema: string, property: string): boolean {
  const named = definitionsOf(document)[schema];
  const parts = [named, ...((named?.allOf as Node[] | undefined) ?? [])];
  const target = parts.map((part) => (part?.properties as Record<string, Node> | undefined)?.[property]).find(Boolean);
  if (!target) return false;
  const copy = { ...target };
  for (const key of Object.keys(target)) delete target[key];
  target.anyOf = [copy, { type: 'null' }];
  return true;
}

export const DIFFERENCES: Difference[] = [
  {
    vendor: 'openai',
    where: 'Response.user and Response.usage (and the response inside stream events)',
    why:
      'null, as the API sends them: `user` when the request set none, `usage` in response.created and ' +
      'response.in_progress before anything is counted. The OpenAPI document types them without null.',
    patch: (document) => alsoNull(document, 'ModelResponseProperties', 'user') && alsoNull(document, 'Response', 'usage'),
  },
  {
    vendor: 'openai',
    where: 'VideoResource.created_at, completed_at, expires_at',
    why:
      'Unix times in milliseconds, as the gateway description says (OpenAI uses seconds). Both are integers, so the ' +
      'schema cannot tell; docs/images-videos.md says it to users.',
  },
  {
    vendor: 'anthropic',
    where: 'Message.container, diagnostics; Usage and MessageDeltaUsage output_tokens_details, server_tool_use, speed; the message_delta container; TextBlock.citations',
    why:
      'The SDK types list these as always present (null when unused); the API leaves them out when unused, and ' +
      'so does the mock. Every other field the types require stays required.',
    patch: (document) =>
      omittable(document, 'Message', ['container', 'diagnostics']) &&
      omittable(document, 'Usage', ['output_tokens_details', 'server_tool_use', 'speed']) &&
      omittable(document, 'MessageDeltaUsage', ['output_tokens_details', 'server_tool_use']) &&
      omittable(document, 'RawMessageDeltaEvent.Delta', ['container']) &&
      omittable(document, 'TextBlock', ['citations']),
  },
  {
    vendor: 'anthropic',
    where: 'ModelInfo.line, deprecated_at, retires_at',
    why:
      'Not sent yet: the catalog has a lifecycle but no model line and no deprecation or retirement dates. ' +
      'Remove this entry when the model objects carry them.',
    patch: (document) => omittable(document, 'ModelInfo', ['line', 'deprecated_at', 'retires_at']),
  },
];
