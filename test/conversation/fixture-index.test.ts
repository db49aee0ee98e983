import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstMatch, sortFixtures } from '../../src/conversation/fixture.js';
import { indexFixtures } from '../../src/conversation/fixture-index.js';
import { compileMatch, type MatchSpec } from '../../src/conversation/match.js';
import { promptSubject } from '../../src/conversation/subject.js';

interface Entry {
  name: string;
  priority: number;
  order: number;
  matcher: ReturnType<typeof compileMatch>;
}

function entries(specs: Array<{ match: MatchSpec; priority: number }>): Entry[] {
  return specs.map(({ match, priority }, order) => ({ name: `f${order}`, priority, order, matcher: compileMatch(match) }));
}

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'C', 'ü', ' '), minLength: 0, maxLength: 4 });
// Enough distinct needles that the list is indexed; some fixtures need none, some a model too.
const spec = fc.oneof(
  fc.record({ match: fc.record({ contains: word }), priority: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ match: fc.record({ contains: word, model: fc.constantFrom('gpt-*', 'claude-*') }), priority: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ match: fc.record({ pattern: fc.constantFrom('a+b', '^C', 'ü$') }), priority: fc.integer({ min: 0, max: 2 }) }),
);

describe('indexFixtures', () => {
  it('picks the fixture a full scan picks, whatever the prompt', () => {
    fc.assert(
      fc.property(
        fc.array(spec, { minLength: 0, maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 40, maxLength: 40 }),
        fc.array(word, { maxLength: 6 }),
        fc.constantFrom('gpt-4o', 'claude-sonnet-4-5'),
        (specs, needleNumbers, words, model) => {
          // 40 numbered needles on top of the generated ones, so every list is big enough to index.
          const all = [...specs, ...needleNumbers.map((n, i) => ({ match: { contains: `Ref-${n}` }, priority: i % 2 }))];
          const scanned = sortFixtures(entries(all));
          const indexed = indexFixtures(sortFixtures(entries(all)));
          const prompt = [...words, `ref-${needleNumbers[0]}`].join(' ');
          const subject = promptSubject(model, prompt, {});
          expect(firstMatch(indexed, subject)?.fixture.name).toBe(firstMatch(scanned, subject)?.fixture.name);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('picks the fixture a full scan picks among recorded turns, whatever the request', () => {
    const fingerprint = fc.constantFrom('fp-a', 'fp-b', 'fp-c');
    const anySpec = fc.oneof(
      spec,
      fc.record({ match: fc.record({ fingerprint }), priority: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ match: fc.record({ fingerprint, contains: word }), priority: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ match: fc.record({ fingerprint, model: fc.constantFrom('gpt-*', 'claude-*') }), priority: fc.integer({ min: 0, max: 2 }) }),
    );
    fc.assert(
      fc.property(
        fc.array(anySpec, { minLength: 0, maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 40, maxLength: 40 }),
        fc.boolean(),
        fc.array(word, { maxLength: 6 }),
        fc.option(fc.constantFrom('fp-a', 'fp-b', 'fp-c', 'fp-7'), { nil: undefined }),
        fc.constantFrom('gpt-4o', 'claude-sonnet-4-5'),
        (specs, numbers, manyNeedles, words, subjectFingerprint, model) => {
          // 40 recorded turns on top of the generated fixtures, so every list is indexed; with
          // `manyNeedles`, 40 needles too, so it is searched as well.
          const recorded = numbers.map((n, i) => ({ match: { fingerprint: `fp-${n}` }, priority: i % 2 }));
          const needles = manyNeedles ? numbers.map((n, i) => ({ match: { contains: `Ref-${n}` }, priority: i % 2 })) : [];
          const all = [...specs, ...recorded, ...needles];
          const scanned = sortFixtures(entries(all));
          const indexed = indexFixtures(sortFixtures(entries(all)));
          const subject = promptSubject(model, [...words, `ref-${numbers[0]}`].join(' '), {}, subjectFingerprint);
          expect(firstMatch(indexed, subject)?.fixture.name).toBe(firstMatch(scanned, subject)?.fixture.name);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds the last of 10,000 recorded turns by its fingerprint, and an earlier fixture without one still wins', () => {
    const specs = Array.from({ length: 10_000 }, (_, i) => ({ match: { fingerprint: `fp-${i}` }, priority: 0 }));
    const fixtures = indexFixtures(sortFixtures(entries(specs)));
    expect(firstMatch(fixtures, promptSubject('gpt-4o', 'anything', {}, 'fp-9999'))?.fixture.name).toBe('f9999');
    expect(firstMatch(fixtures, promptSubject('gpt-4o', 'anything', {}, 'fp-other'))).toBeUndefined();

    const withCatchAll = indexFixtures(sortFixtures(entries([...specs, { match: { contains: 'anything' }, priority: 1 }])));
    expect(firstMatch(withCatchAll, promptSubject('gpt-4o', 'anything', {}, 'fp-9999'))?.fixture.name).toBe('f10000');
  });

  it('finds the last of 10,000 `contains` fixtures, and an earlier one without `contains` still wins', () => {
    const specs = Array.from({ length: 10_000 }, (_, i) => ({ match: { contains: `ticket-${String(i).padStart(5, '0')}` }, priority: 0 }));
    const fixtures = indexFixtures(sortFixtures(entries(specs)));
    expect(firstMatch(fixtures, promptSubject('gpt-4o', 'About TICKET-09999, please', {}))?.fixture.name).toBe('f9999');

    const withCatchAll = indexFixtures(sortFixtures(entries([...specs, { match: { pattern: 'please' }, priority: 1 }])));
    expect(firstMatch(withCatchAll, promptSubject('gpt-4o', 'About ticket-09999, please', {}))?.fixture.name).toBe('f10000');
  });

  it('freezes the list it indexed, so the index cannot go stale', () => {
    const fixtures = indexFixtures(sortFixtures(entries([{ match: { contains: 'x' }, priority: 0 }])));
    expect(Object.isFrozen(fixtures)).toBe(true);
  });
});
