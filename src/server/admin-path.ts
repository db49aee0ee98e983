// The developer's own paths, spelled once: the admin API under `/__admin` (in any case, as the
// router matches it) and `/`, the way into the inspector. They are not the app's traffic: never
// journaled, counted or announced, and the admin guard, not CORS for every page, decides who
// may call them.
const ADMIN_PATH = /^\/__admin(?:\/|$)/i;

export function isAdminPath(path: string): boolean {
  return ADMIN_PATH.test(path);
}

export function isControlPath(path: string): boolean {
  return path === '/' || isAdminPath(path);
}

const INSPECTOR_FILE = /^\/__admin\/ui(?:\/|$)/i;

/** The inspector page and its files: a page load fetches a dozen, which the log shows only at debug level. */
export function isInspectorFile(path: string): boolean {
  return INSPECTOR_FILE.test(path);
}
