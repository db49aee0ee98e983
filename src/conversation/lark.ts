// A Lark grammar (OpenAI custom tools' `format.grammar` with `syntax: "lark"`) as one regular
// expression, so the pattern generator can make input that fits it. Covers what tool grammars use
// in practice: rules and terminals, literals (and "a".."z" ranges), /regex/ terminals, groups,
// [optional] parts, ? * + and ~ n..m repetitions, aliases, and `%import common.X`. A recursive
// grammar is not regular: it throws, as does anything else beyond the subset.

export class GrammarBeyondReach extends Error {}

type Token = { kind: 'string' | 'regex' | 'name' | 'number' | 'punct' | 'directive' | 'newline'; text: string };

// Lark's own `common` terminals, in RE2 syntax.
const COMMON: Record<string, string> = {
  DIGIT: '[0-9]',
  HEXDIGIT: '[0-9a-fA-F]',
  INT: '[0-9]+',
  SIGNED_INT: '[+-]?[0-9]+',
  DECIMAL: '[0-9]+\\.[0-9]*',
  FLOAT: '[0-9]+\\.[0-9]+',
  NUMBER: '[0-9]+(?:\\.[0-9]+)?',
  SIGNED_NUMBER: '[+-]?[0-9]+(?:\\.[0-9]+)?',
  LETTER: '[a-zA-Z]',
  LCASE_LETTER: '[a-z]',
  UCASE_LETTER: '[A-Z]',
  WORD: '[a-zA-Z]+',
  CNAME: '[a-zA-Z_][a-zA-Z0-9_]*',
  WS: '[ \\t\\r\\n]+',
  WS_INLINE: '[ \\t]+',
  NEWLINE: '\\n',
  LF: '\\n',
  CR: '\\r',
  ESCAPED_STRING: '"[a-zA-Z0-9 ]*"',
};

const TOKEN = /[ \t\r]*(?:(\/\/[^\n]*)|(\n)|("(?:[^"\\]|\\.)*"i?)|(\/(?![/*])(?:[^/\\\n]|\\.)+\/[imslux]*)|(%[a-z]+)|([?!]?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)|([0-9]+)|(\.\.|->|[:|()[\]?*+~,.]))/y;

function tokenize(grammar: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < grammar.length) {
    if (/^\s*$/.test(grammar.slice(at))) break;
    TOKEN.lastIndex = at;
    const found = TOKEN.exec(grammar);
    if (!found) throw new GrammarBeyondReach(`unreadable grammar at character ${at}`);
    at = TOKEN.lastIndex;
    const [, comment, newline, string, regex, directive, name, number, punct] = found;
    if (comment !== undefined) continue;
    if (newline !== undefined) tokens.push({ kind: 'newline', text: '\n' });
    else if (string !== undefined) tokens.push({ kind: 'string', text: string });
    else if (regex !== undefined) tokens.push({ kind: 'regex', text: regex });
    else if (directive !== undefined) tokens.push({ kind: 'directive', text: directive });
    else if (name !== undefined) tokens.push({ kind: 'name', text: name.replace(/^[?!]/, '') });
    else if (number !== undefined) tokens.push({ kind: 'number', text: number });
    else tokens.push({ kind: 'punct', text: punct! });
  }
  return tokens;
}

/** Each definition's tokens, by name; a definition runs to the next line that starts another. */
function definitions(tokens: Token[]): Map<string, Token[]> {
  const defined = new Map<string, Token[]>();
  let current: Token[] | undefined;
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    const lineStart = i === 0 || tokens[i - 1]!.kind === 'newline';
    if (lineStart && token.kind === 'directive') {
      current = undefined;
      if (token.text === '%import') i = importCommon(tokens, i + 1, defined);
      continue;
    }
    if (lineStart && token.kind === 'name') {
      // `name:` or `name.2:` (a priority) starts a definition.
      let colon = i + 1;
      if (tokens[colon]?.text === '.' && tokens[colon + 1]?.kind === 'number') colon += 2;
      if (tokens[colon]?.text === ':') {
        current = [];
        defined.set(token.text, current);
        i = colon;
        continue;
      }
    }
    if (token.kind !== 'newline') current?.push(token);
  }
  return defined;
}

/** `%import common.X (-> Y)` or `%import common (X, Y)`; returns the index of the line's last token. */
function importCommon(tokens: Token[], at: number, defined: Map<string, Token[]>): number {
  const line: Token[] = [];
  let i = at;
  for (; i < tokens.length && tokens[i]!.kind !== 'newline'; i += 1) line.push(tokens[i]!);
  const names = line.filter((t) => t.kind === 'name').map((t) => t.text);
  const [module, ...rest] = names;
  const alias = line.some((t) => t.text === '->') ? rest.pop() : undefined;
  const imported = module?.startsWith('common.') ? [module.slice('common.'.length)] : module === 'common' ? rest : [];
  for (const name of imported) {
    const pattern = COMMON[name];
    if (pattern === undefined) throw new GrammarBeyondReach(`%import of ${module ?? ''} ${name}`);
    defined.set(alias ?? name, [{ kind: 'regex', text: `/${pattern}/` }]);
  }
  return i - 1;
}

const SPECIAL = /[\\^$.|?*+()[\]{}]/g;

function literal(token: string): string {
  const text = JSON.parse(token.replace(/i$/, '')) as string;
  return text.replace(SPECIAL, '\\$&');
}

class Compiler {
  private tokens: Token[] = [];
  private at = 0;
  private readonly open = new Set<string>();

  constructor(private readonly defined: Map<string, Token[]>) {}

  rule(name: string): string {
    const body = this.defined.get(name);
    if (!body) throw new GrammarBeyondReach(`'${name}' is not defined`);
    if (this.open.has(name)) throw new GrammarBeyondReach(`'${name}' is recursive`);
    this.open.add(name);
    const [tokens, at] = [this.tokens, this.at];
    this.tokens = body;
    this.at = 0;
    const pattern = this.alternatives();
    if (this.at < body.length) throw new GrammarBeyondReach(`unexpected '${body[this.at]!.text}' in '${name}'`);
    [this.tokens, this.at] = [tokens, at];
    this.open.delete(name);
    return pattern;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private alternatives(): string {
    const options = [this.sequence()];
    while (this.peek()?.text === '|') {
      this.at += 1;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : options.map((o) => `(?:${o})`).join('|');
  }

  private sequence(): string {
    let out = '';
    for (let next = this.peek(); next && !['|', ')', ']'].includes(next.text); next = this.peek()) {
      if (next.text === '->') {
        this.at += 2; // an alias names the tree node; the text is the same
        continue;
      }
      out += this.repeated(this.atom());
    }
    return out;
  }

  private repeated(atom: string): string {
    const op = this.peek()?.text;
    if (op === '?' || op === '*' || op === '+') {
      this.at += 1;
      return `(?:${atom})${op}`;
    }
    if (op !== '~') return atom;
    const low = this.tokens[this.at + 1];
    if (low?.kind !== 'number') throw new GrammarBeyondReach('~ without a count');
    this.at += 2;
    if (this.peek()?.text !== '..') return `(?:${atom}){${low.text}}`;
    const high = this.tokens[this.at + 1];
    if (high?.kind !== 'number') throw new GrammarBeyondReach('~ n.. without an upper count');
    this.at += 2;
    return `(?:${atom}){${low.text},${high.text}}`;
  }

  private atom(): string {
    const token = this.tokens[this.at++];
    if (!token) throw new GrammarBeyondReach('unexpected end of a rule');
    if (token.kind === 'string') {
      if (this.peek()?.text !== '..') return literal(token.text);
      const high = this.tokens[this.at + 1];
      if (high?.kind !== 'string') throw new GrammarBeyondReach('a range without its upper end');
      this.at += 2;
      return `[${literal(token.text)}-${literal(high.text)}]`;
    }
    if (token.kind === 'regex') return `(?:${token.text.slice(1, token.text.lastIndexOf('/'))})`;
    if (token.kind === 'name') return `(?:${this.rule(token.text)})`;
    if (token.text === '(' || token.text === '[') {
      const inner = this.alternatives();
      const close = token.text === '(' ? ')' : ']';
      if (this.tokens[this.at++]?.text !== close) throw new GrammarBeyondReach(`'${token.text}' without '${close}'`);
      return token.text === '(' ? `(?:${inner})` : `(?:${inner})?`;
    }
    throw new GrammarBeyondReach(`unexpected '${token.text}'`);
  }
}

/** The regular expression (RE2 syntax) of the language of the grammar's `start` rule. */
export function larkPattern(grammar: string): string {
  return new Compiler(definitions(tokenize(grammar))).rule('start');
}
