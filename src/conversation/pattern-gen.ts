// Strings that match a JSON Schema `pattern`, for structured outputs that constrain ids, codes and
// the like. Covers the regex subset such schemas use in practice: literals, escapes (\d \w \s
// \p{..} \uXXXX), classes and ranges (negated too), `.`, groups, alternation and quantifiers.
// Lookarounds and backreferences are out of reach: those patterns yield undefined. A pattern
// whose shortest match is longer than a generated string may be yields undefined too, and
// sampling stops repeating once that many characters are out.
import type { RE2JS } from 're2js';
import { MAX_GENERATED_STRING } from './limits.js';
import { re2js } from './pattern-work.js';
import type { Random } from './random.js';

type Ranges = ReadonlyArray<readonly [number, number]>;
type Node =
  | { kind: 'chars'; ranges: Ranges }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const code = (char: string): number => char.codePointAt(0) ?? 0;
const DIGITS: Ranges = [[48, 57]];
const LOWER: Ranges = [[97, 122]];
const UPPER: Ranges = [[65, 90]];
const LETTERS: Ranges = [[97, 122], [65, 90]];
const WORD: Ranges = [[97, 122], [65, 90], [48, 57], [95, 95]];
// What "anything" (`.`, \S, a negated class) draws from: printable ASCII reads like real data.
const PRINTABLE: readonly [number, number] = [32, 126];
// Quantifiers repeat at most this many times beyond their minimum: {1,255} or * would otherwise
// give long runs of noise where real data is short.
const OPEN_EXTRA = 3;
const BOUNDED_EXTRA = 8;
const ATTEMPTS = 5;

class Unsupported extends Error {}

/** A string matching `pattern`, or undefined when the pattern uses features beyond the subset. */
export function generateFromPattern(pattern: string, random: Random): string | undefined {
  let tree: Node;
  let regex: RE2JS;
  try {
    tree = new Parser(pattern).parse();
    // A client's pattern is checked on RE2 (linear time): a backtracking engine would hang on
    // `^((a+)+)+\bc$` when a sample falls outside the subset and fails to match.
    regex = re2js().RE2JS.compile(toRe2(pattern));
  } catch {
    return undefined;
  }
  if (shortest(tree) > MAX_GENERATED_STRING) return undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const candidate = sample(tree, random, { left: MAX_GENERATED_STRING });
    if (regex.matcher(candidate).find()) return candidate;
  }
  return undefined;
}

/** The length of the shortest string matching `pattern`, or undefined when it is beyond the subset. */
export function shortestMatch(pattern: string): number | undefined {
  try {
    return shortest(new Parser(pattern).parse());
  } catch {
    return undefined;
  }
}

function shortest(node: Node): number {
  switch (node.kind) {
    case 'chars':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + shortest(item), 0);
    case 'alt':
      // A loop, not Math.min(...): a pattern may have more alternatives than a call takes arguments.
      return node.options.reduce((least, option) => Math.min(least, shortest(option)), Infinity);
    case 'repeat':
      return node.min === 0 ? 0 : node.min * shortest(node.node);
  }
}

// ECMA-262 spellings RE2 lacks, each after an even run of backslashes (an unescaped escape).
const JS_UNICODE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{4}))/g;
const JS_ANY_CLASS = /(?<!\\)((?:\\\\)*)\[\^\]/g;

/** JSON Schema patterns are ECMA-262: `\u00e9` and `[^]` in RE2's syntax. */
function toRe2(pattern: string): string {
  return pattern.replace(JS_UNICODE_ESCAPE, (_, slashes: string, braced?: string, plain?: string) => `${slashes}\\x{${braced ?? plain}}`).replace(JS_ANY_CLASS, '$1[\\s\\S]');
}

/** `budget.left`: characters still to give; repeats stop once it is spent. */
function sample(node: Node, random: Random, budget: { left: number }): string {
  switch (node.kind) {
    case 'chars': {
      budget.left -= 1;
      const total = node.ranges.reduce((sum, [low, high]) => sum + high - low + 1, 0);
      let offset = random.int(0, total - 1);
      for (const [low, high] of node.ranges) {
        if (offset <= high - low) return String.fromCodePoint(low + offset);
        offset -= high - low + 1;
      }
      return '';
    }
    case 'seq':
      return node.items.map((item) => sample(item, random, budget)).join('');
    case 'alt':
      return sample(random.pick(node.options), random, budget);
    case 'repeat': {
      let out = '';
      for (let count = random.int(node.min, node.max); count > 0 && budget.left > 0; count -= 1) {
        const once = sample(node.node, random, budget);
        // An empty repetition can stand for all the rest: `(){100000000}` ends at once.
        if (once === '') break;
        out += once;
      }
      return out;
    }
  }
}

/** Recursive descent over the pattern; anchors and word boundaries are dropped (null atoms). */
class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw new Unsupported('unbalanced )');
    return node;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.eat('|')) options.push(this.sequence());
    return options.length === 1 ? (options[0] as Node) : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      if (atom) items.push(this.quantified(atom));
    }
    return { kind: 'seq', items };
  }

  private atom(): Node | null {
    const char = this.next();
    if (char === '^' || char === '$') return null;
    if (char === '.') return { kind: 'chars', ranges: WORD };
    if (char === '[') return { kind: 'chars', ranges: this.characterClass() };
    if (char === '(') return this.group();
    if (char === '\\') {
      const ranges = this.escape();
      return ranges && { kind: 'chars', ranges };
    }
    return literal(code(char));
  }

  private group(): Node {
    if (this.eat('?')) {
      if (this.eat(':')) {
        // non-capturing group
      } else if (this.peek() === '<' && !/^<[=!]/.test(this.source.slice(this.at))) {
        const close = this.source.indexOf('>', this.at);
        if (close < 0) throw new Unsupported('unterminated group name');
        this.at = close + 1;
      } else throw new Unsupported('lookaround');
    }
    const node = this.alternation();
    if (!this.eat(')')) throw new Unsupported('unterminated group');
    return node;
  }

  private quantified(atom: Node): Node {
    const char = this.peek();
    let bounds: [number, number] | undefined;
    if (char === '*') bounds = [0, OPEN_EXTRA];
    else if (char === '+') bounds = [1, 1 + OPEN_EXTRA];
    else if (char === '?') bounds = [0, 1];
    if (bounds) this.at += 1;
    else if (char === '{') {
      const braces = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.source.slice(this.at));
      if (!braces) return atom; // a literal "{" outside unicode mode
      const min = Number(braces[1]);
      const max = braces[2] === undefined ? min : braces[3] ? Number(braces[3]) : min + OPEN_EXTRA;
      if (max < min) throw new Unsupported('bad quantifier');
      bounds = [min, Math.min(max, min + BOUNDED_EXTRA)];
      this.at += braces[0].length;
    }
    if (!bounds) return atom;
    this.eat('?'); // lazy and greedy generate alike
    return { kind: 'repeat', node: atom, min: bounds[0], max: bounds[1] };
  }

  private characterClass(): Ranges {
    const negated = this.eat('^');
    const ranges: Array<readonly [number, number]> = [];
    while (this.peek() !== ']') {
      if (this.at >= this.source.length) throw new Unsupported('unterminated class');
      const low = this.classMember();
      if (typeof low === 'number' && this.peek() === '-' && this.source[this.at + 1] !== ']') {
        this.at += 1;
        const high = this.classMember();
        if (typeof high !== 'number' || high < low) throw new Unsupported('bad range');
        ranges.push([low, high]);
      } else if (typeof low === 'number') ranges.push([low, low]);
      else ranges.push(...low);
    }
    this.at += 1;
    if (!negated && ranges.length === 0) throw new Unsupported('empty class matches nothing');
    return negated ? complement(ranges) : ranges;
  }

  /** One code point, or the ranges of an escape such as \d. */
  private classMember(): number | Ranges {
    const char = this.next();
    if (char !== '\\') return code(char);
    if (this.eat('b')) return 8; // \b is backspace inside a class
    return this.escape() ?? [];
  }

  /** After a backslash: the ranges it stands for, or null for a zero-width assertion. */
  private escape(): Ranges | null {
    const char = this.next();
    const simple: Record<string, Ranges | null> = {
      d: DIGITS, D: LETTERS, w: WORD, W: [[45, 45]], s: [[32, 32]], S: LETTERS, b: null, B: null,
      n: [[10, 10]], t: [[9, 9]], r: [[13, 13]], f: [[12, 12]], v: [[11, 11]], '0': [[0, 0]],
    };
    if (char in simple) return simple[char] ?? null;
    if (/[1-9k]/.test(char)) throw new Unsupported('backreference');
    if (char === 'p' || char === 'P') {
      const braces = /^\{([^}]*)\}/.exec(this.source.slice(this.at));
      this.at += braces ? braces[0].length : 0;
      const digits = /^(N|Nd|Number|Decimal_Number)$/.test(braces?.[1] ?? '');
      if (char === 'P') return digits ? LOWER : DIGITS;
      return digits ? DIGITS : /^(Lu|Uppercase_Letter)$/.test(braces?.[1] ?? '') ? UPPER : LOWER;
    }
    if (char === 'x' || char === 'u') {
      const shape = char === 'x' ? /^[0-9a-fA-F]{2}/ : /^(?:\{[0-9a-fA-F]+\}|[0-9a-fA-F]{4})/;
      const hex = shape.exec(this.source.slice(this.at))?.[0];
      if (!hex) return [[code(char), code(char)]];
      this.at += hex.length;
      const point = Number.parseInt(hex.replace(/[{}]/g, ''), 16);
      return [[point, point]];
    }
    return [[code(char), code(char)]];
  }

  private peek(): string {
    return String.fromCodePoint(this.source.codePointAt(this.at) ?? 0);
  }

  private next(): string {
    const char = this.peek();
    if (this.at >= this.source.length) throw new Unsupported('unexpected end');
    this.at += char.length;
    return char;
  }

  private eat(char: string): boolean {
    if (this.peek() !== char || this.at >= this.source.length) return false;
    this.at += 1;
    return true;
  }
}

function literal(point: number): Node {
  return { kind: 'chars', ranges: [[point, point]] };
}

/** Printable ASCII minus the given ranges (a negated class); a dash if nothing is left. */
function complement(ranges: Ranges): Ranges {
  const out: Array<readonly [number, number]> = [];
  for (let point = PRINTABLE[0]; point <= PRINTABLE[1]; point += 1) {
    if (ranges.some(([low, high]) => point >= low && point <= high)) continue;
    const last = out[out.length - 1];
    if (last && last[1] === point - 1) out[out.length - 1] = [last[0], point];
    else out.push([point, point]);
  }
  return out.length > 0 ? out : [[45, 45]];
}
