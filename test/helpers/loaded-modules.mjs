// Given to a child's `node --import`: every module file and Node module the child imports is named
// on its stderr as `loaded <url>`, so a test can tell what a start loaded before a request asked
// for it.
import { register } from 'node:module';

register('data:text/javascript,' + encodeURIComponent(`
export async function load(url, context, next) {
  if (url.startsWith('file:') || url.startsWith('node:')) process.stderr.write('loaded ' + url + '\\n');
  return next(url, context);
}`));
