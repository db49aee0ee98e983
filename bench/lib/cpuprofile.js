// Reading a V8 .cpuprofile: where the time went, by function (self and total) and by package.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

/** `koa`, `@koa/router`, `dist/server/app.js`, `node:internal`... */
export function ownerOf(url) {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const path = url.startsWith('file://') ? new URL(url).pathname : url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  return relative(ROOT, path) || path;
}

function labelOf(frame) {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  return `${name} ${ownerOf(frame.url)}:${frame.lineNumber + 1}`;
}

/**
 * @param fromUs, toUs keep only the samples in this window (µs on the monotonic clock), leaving
 *   out startup, warmup and shutdown
 * @returns `{ totalMs, functions: [{ label, selfMs, totalMs }], owners: [{ owner, selfMs }] }`,
 * each sorted by self time, idle and GC kept as their own rows so the shares add up.
 */
export function summarize(file, fromUs = 0, toUs = Infinity) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const self = new Map();
  const total = new Map();
  const owners = new Map();
  let totalMs = 0;
  let sampledUs = profile.startTime;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    sampledUs += profile.timeDeltas[i] ?? 0;
    if (sampledUs < fromUs || sampledUs > toUs) return;
    totalMs += ms;
    const node = byId.get(id);
    const label = labelOf(node.callFrame);
    self.set(label, (self.get(label) ?? 0) + ms);
    const owner = ownerOf(node.callFrame.url);
    owners.set(owner, (owners.get(owner) ?? 0) + ms);
    // A function counts once per sample however deep it recurses.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const key = labelOf(byId.get(at).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + ms);
    }
  });
  return {
    totalMs,
    functions: [...self].map(([label, selfMs]) => ({ label, selfMs, totalMs: total.get(label) ?? selfMs })).sort((a, b) => b.selfMs - a.selfMs),
    byTotal: [...total].map(([label, ms]) => ({ label, totalMs: ms })).sort((a, b) => b.totalMs - a.totalMs),
    owners: [...owners].map(([owner, selfMs]) => ({ owner, selfMs })).sort((a, b) => b.selfMs - a.selfMs),
  };
}
