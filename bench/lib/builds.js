// The A/B harnesses' contenders (first-burst.js, unpaced-threads.js, hit-pairs.js): checkouts of the mock, each
// with its own built dist/, and one name for a server that is not a build (bare, aimock), started
// from this checkout's server child.
import { fork } from 'node:child_process';
import { join, resolve } from 'node:path';

const HERE = resolve(new URL('../..', import.meta.url).pathname);

/** The checkouts `--builds a,b` names, resolved; `other` stays as it is written. */
export function buildsFrom(list, other) {
  if (!list) throw new Error(`--builds a,b: the checkouts to compare (each built), or \`${other}\``);
  return list.split(',').map((build) => (build === other ? build : resolve(build)));
}

/**
 * A server child (lib/server-child.js) of `build`'s checkout, or of this one for `other`, started
 * with `message`; resolves with `{ child, url }` once it listens.
 */
export function startChild(build, other, message, { execArgv = [], stdout = 'inherit' } = {}) {
  const child = fork(join(build === other ? HERE : build, 'bench/lib/server-child.js'), [], { execArgv, stdio: ['ignore', stdout, 'inherit', 'ipc'] });
  return new Promise((done, fail) => {
    child.once('message', (answer) => (answer.type === 'listening' ? done({ child, url: answer.url }) : fail(new Error(answer.message))));
    child.send(message);
  });
}

/** Where a harness keeps the `kind` (`cpu` or `heap`) profile of build `index`'s server in pair `pair` (from 0). */
export function profilePath(dir, harness, kind, index, pair) {
  return resolve(dir, `${harness}-${kind}-b${index}-p${pair + 1}.${kind === 'cpu' ? 'cpuprofile' : 'heapprofile'}`);
}

/** Asks the server for `message` and resolves with its answer of the same type. */
export function ask(server, message) {
  return new Promise((done) => {
    const answer = (reply) => {
      if (reply.type !== message.type) return;
      server.child.off('message', answer);
      done(reply);
    };
    server.child.on('message', answer);
    server.child.send(message);
  });
}
