// The generator's input for a freeform tool fits its grammar: a Lark grammar of the subset tool
// grammars use (rules, literals, ranges, optional parts, repetitions, aliases, imports, comments)
// gives sentences of the grammar; a recursive one, or one naming what it never defines, is a 400
// naming the tool.
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import { freeformInput } from '../../src/conversation/freeform.js';
import { seededRandom } from '../../src/conversation/random.js';
import type { ToolDef } from '../../src/conversation/types.js';

const lark = (definition: string): ToolDef => ({ name: 'cmd', parameters: {}, freeform: { grammar: { syntax: 'lark', definition } } });

const GRAMMARS: Array<[string, RegExp]> = [
  ['start: "yes" | "no"', /^(yes|no)$/],
  [
    `// a comment
?start: verb " " noun -> command
verb: "get"
    | "put"
noun: ("a".."c")+ [ "!" ]
%ignore " "`,
    /^(get|put) [a-c]+!?$/,
  ],
  ['start: NUMBER ("," NUMBER)~0..2\n%import common.NUMBER', /^[0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?){0,2}$/],
  ['start: WORD\nWORD.2: /[a-z]{2,5}/', /^[a-z]{2,5}$/],
];

describe('freeform tool input', () => {
  it.each(GRAMMARS)('gives sentences of %j', (definition, sentence) => {
    for (let index = 0; index < 20; index += 1) {
      expect(freeformInput(lark(definition), seededRandom(7, definition, index))).toMatch(sentence);
    }
  });

  it('gives input a regex grammar matches whole', () => {
    const tool: ToolDef = { name: 'code', parameters: {}, freeform: { grammar: { syntax: 'regex', definition: '[A-Z]{2}-\\d{3}' } } };
    const input = freeformInput(tool, seededRandom(1, 'x', 0));
    expect(RE2JS.matches('[A-Z]{2}-\\d{3}', input)).toBe(true);
  });

  it.each(['start: "(" start ")" | "x"', 'start: missing'])('refuses %j with an error naming the tool', (definition) => {
    const error = (() => {
      try {
        return freeformInput(lark(definition), seededRandom(1, 'x', 0));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(MockError);
    expect((error as MockError).message).toContain("'cmd'");
  });

  it('gives plain text to a tool without a grammar', () => {
    expect(freeformInput({ name: 'note', parameters: {}, freeform: {} }, seededRandom(1, 'x', 0)).length).toBeGreaterThan(0);
  });
});
