// The inspector page's files: `ui/` of the package, and the browser builds of preact and htm
// from node_modules, so the page works offline with no bundler. No token is needed for them:
// the page asks for it and sends it on the API calls.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'koa';
import { MockError } from '../conversation/errors.js';
import type { Mock } from '../exchange/mock.js';
import { write } from './writer.js';
import { packageFile } from '../package-root.js';

const UI_DIR = packageFile('ui');
const require = createRequire(import.meta.url);

/** The ES module builds the page imports through its import map, and their source maps (for devtools). */
const VENDOR = new Map<string, () => string>([
  ['preact.mjs', () => require.resolve('preact')],
  ['preact.mjs.map', () => `${require.resolve('preact')}.map`],
  ['hooks.mjs', () => require.resolve('preact/hooks')],
  ['hooks.mjs.map', () => `${require.resolve('preact/hooks')}.map`],
  ['htm.mjs', () => join(dirname(require.resolve('htm')), 'htm.mjs')],
]);

const TYPES = new Map([
  ['html', 'text/html; charset=utf-8'],
  ['js', 'text/javascript; charset=utf-8'],
  ['mjs', 'text/javascript; charset=utf-8'],
  ['css', 'text/css; charset=utf-8'],
  ['map', 'application/json; charset=utf-8'],
]);

/** Names come from the two tables above, so every extension asked for has its type. */
const typeOf = (name: string): string => TYPES.get(name.split('.').pop()!)!;

/** Plain names only: nothing outside ui/ can be asked for. */
const FILE_NAME = /^[a-z][a-z0-9-]*\.(html|js|css)$/;

function notFound(ctx: Context): MockError {
  return new MockError('not_found', `The inspector has no file ${ctx.path}.`, { code: 'unknown_url' });
}

async function send(ctx: Context, path: string, contentType: string): Promise<void> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch {
    throw notFound(ctx);
  }
  await write(ctx, { kind: 'binary', status: 200, headers: { 'cache-control': 'no-cache' }, contentType, data });
}

export function uiPage() {
  return (ctx: Context) => send(ctx, join(UI_DIR, 'index.html'), typeOf('index.html'));
}

export function uiFile() {
  return (ctx: Context) => {
    const name = (ctx.params as { file: string }).file;
    if (!FILE_NAME.test(name)) throw notFound(ctx);
    return send(ctx, join(UI_DIR, name), typeOf(name));
  };
}

export function uiVendorFile() {
  return (ctx: Context) => {
    const name = (ctx.params as { file: string }).file;
    const locate = VENDOR.get(name);
    if (!locate) throw notFound(ctx);
    return send(ctx, locate(), typeOf(name));
  };
}

/** What the page needs to know before its first API call. */
export function uiSettings(mock: Mock) {
  return (ctx: Context) => write(ctx, { kind: 'json', status: 200, headers: {}, body: { token_required: Boolean(mock.options.adminToken) } });
}
