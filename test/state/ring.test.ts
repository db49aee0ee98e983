// The journal's ring grows as it fills and keeps the newest `capacity` items, oldest first,
// whatever the order of pushes, evictions and clears.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ring } from '../../src/state/ring.js';

describe('the ring', () => {
  it('behaves as a list that drops its oldest past the capacity', () => {
    const operation = fc.oneof(fc.constant('push' as const), fc.constant('shift' as const), fc.constant('clear' as const));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.oneof({ weight: 8, arbitrary: fc.constant('push' as const) }, { weight: 2, arbitrary: operation }), { maxLength: 300 }), (capacity, operations) => {
        const ring = new Ring<number>(capacity);
        const model: number[] = [];
        operations.forEach((op, n) => {
          if (op === 'push') {
            const overwritten = ring.push(n);
            model.push(n);
            expect(overwritten).toBe(model.length > capacity ? model.shift() : undefined);
          } else if (op === 'shift') {
            expect(ring.shift()).toBe(model.shift());
          } else {
            ring.clear();
            model.length = 0;
          }
          expect(ring.toArray()).toEqual(model);
          expect(ring.newest(3)).toEqual(model.slice(-3));
          expect(ring.length).toBe(model.length);
        });
      }),
    );
  });
});
