// Cuts OpenAI's OpenAPI document down to the component schemas the schema check names and the
// ones they reach through $ref, so the repo keeps a small, pinned file.
// Usage: node trim-openapi.mjs <openapi.json> > openai.json
import { readFileSync } from 'node:fs';

const ROOTS = [
  'CreateChatCompletionResponse',
  'CreateChatCompletionStreamResponse',
  'Response',
  'ResponseStreamEvent',
  'ErrorResponse',
  'ListModelsResponse',
  'Model',
  'ImagesResponse',
  'VideoResource',
  'VideoListResource',
  'DeletedVideoResource',
];

const document = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const all = document.components.schemas;
const kept = {};
const visit = (node) => {
  if (Array.isArray(node)) return node.forEach(visit);
  if (node === null || typeof node !== 'object') return;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) keep(ref.slice('#/components/schemas/'.length));
  Object.values(node).forEach(visit);
};
const keep = (name) => {
  if (kept[name] || !all[name]) return;
  kept[name] = all[name];
  visit(all[name]);
};
ROOTS.forEach(keep);
// Prose and examples are most of the bytes and play no part in validation.
// A few schemas still carry OpenAPI 3.0's `nullable`, which 3.1 replaced by a null type.
const bare = (node) => {
  if (Array.isArray(node)) return node.map(bare);
  if (node === null || typeof node !== 'object') return node;
  if (node.nullable === true) {
    // As in 3.0, null passes whatever else the schema says (its enum included).
    const { nullable: _nullable, ...rest } = node;
    return { anyOf: [bare(rest), { type: 'null' }] };
  }
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !((key === 'description' || key === 'title') && typeof value === 'string') && key !== 'example' && key !== 'x-oaiMeta')
      .map(([key, value]) => [key, bare(value)]),
  );
};
const sorted = Object.fromEntries(Object.keys(kept).sort().map((name) => [name, bare(kept[name])]));
const info = { title: document.info.title, version: document.info.version };
process.stdout.write(`${JSON.stringify({ openapi: document.openapi, info, components: { schemas: sorted } })}\n`);
