// A path's parameters under a route's pattern as the route tables write it (`/v1/videos/:id`):
// for code that finds a route without the router (pinning a journal entry, the in-process admin
// client). Parameters are decoded; a path that does not fit (or cannot be decoded) gives undefined.
export function pathParams(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const have = path.replace(/(.)\/+$/, '$1').split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    if (!part.startsWith(':')) {
      if (part !== have[index]) return undefined;
      continue;
    }
    try {
      params[part.slice(1)] = decodeURIComponent(have[index]!);
    } catch {
      return undefined;
    }
  }
  return params;
}
