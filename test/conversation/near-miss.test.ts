import { describe, expect, it } from 'vitest';
import { nearestMiss } from '../../src/conversation/fixture.js';
import { compileMatch, type MatchSpec } from '../../src/conversation/match.js';
import { promptSubject } from '../../src/conversation/subject.js';

const fixtures = (specs: MatchSpec[]) => specs.map((match, i) => ({ name: `f${i}`, file: 'f.yaml', matcher: compileMatch(match) }));
const subject = promptSubject('gpt-4o', 'about ticket 7', {});

describe('nearestMiss', () => {
  it('names the first fixture that failed the fewest keys', () => {
    const list = fixtures([
      { model: 'claude-*', contains: 'refund' },
      { model: 'claude-*', contains: 'ticket' },
      { model: 'gpt-*', contains: 'refund' },
      { contains: 'invoice' },
    ]);
    expect(nearestMiss(list, subject)).toEqual({ fixture: 'f1', file: 'f.yaml', failed: ['model'] });
  });

  it('skips fixtures that match and reports every key the nearest one failed', () => {
    const list = fixtures([{ contains: 'ticket' }, { model: 'claude-*', contains: 'refund', turn: 3 }]);
    expect(nearestMiss(list, subject)?.failed).toEqual(['model', 'contains', 'turn']);
  });

  it('lists the failed keys in one order whatever the file wrote, the pattern after style, model and contains', () => {
    const list = fixtures([{ turn: 3, system: 'be brief', pattern: 'refund (?<order>\\d+)', contains: 'invoice', model: 'claude-*', tools: ['lookup'] }]);
    expect(nearestMiss(list, subject)?.failed).toEqual(['model', 'contains', 'pattern', 'system', 'tools', 'turn']);
  });
});
