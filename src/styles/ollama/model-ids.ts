// Ollama names a model `name:tag`: `name:latest` is `name`, and `name:tag` is the catalog's
// `name:tag` if it lists one, else its `name`.
export function ollamaCatalogId(id: string, listed: (id: string) => boolean): string | undefined {
  if (listed(id)) return id;
  const colon = id.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const name = id.slice(0, colon);
  return listed(name) ? name : undefined;
}
