// OpenRouter names a model `vendor/model`, its version with dots or hyphens
// (`anthropic/claude-sonnet-4.6`), and may add a routing variant (`:free`, `:nitro`).
export function openrouterCatalogId(id: string, listed: (id: string) => boolean): string | undefined {
  if (listed(id)) return id;
  const model = id.slice(id.indexOf('/') + 1).replace(/:[a-z]+$/, '');
  for (const candidate of [model, model.replaceAll('.', '-')]) if (listed(candidate)) return candidate;
  return undefined;
}
