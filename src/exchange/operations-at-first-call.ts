// The operations of a module that a start does not need (videos, images, audio, files, batches, the
// other doors), reached through rows whose module is evaluated at the first request that calls one:
// a start then evaluates none of those modules and the styles only they use (about a tenth of the
// code it evaluated to its listening line), and a chat hit never does. The first such request waits
// for its module's evaluation (requests that come meanwhile share it); the ones after it call the
// operation itself.
import type { Operation } from './exchange.js';

/** The names of `M`'s members that are operations. */
type OperationNames<M> = { [K in keyof M]: M[K] extends Operation ? K : never }[keyof M];

/** A row's operation `name` of the module `load` gives, loaded at the first call of any of them and kept. */
export function operationsAtFirstCall<M>(load: () => Promise<M>): (name: OperationNames<M>) => Operation {
  let loading: Promise<M> | undefined;
  return (name) => {
    let operation: Operation | undefined;
    return (mock, exchange, door) => {
      if (operation) return operation(mock, exchange, door);
      return (loading ??= load()).then((module) => {
        operation = module[name] as Operation;
        return operation(mock, exchange, door);
      });
    };
  };
}
