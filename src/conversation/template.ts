// `{{name}}` templates in fixture replies, compiled at load. A name is a capture group of the
// fixture's pattern, `model`, `style`, `last_user_message`, `request.<path>` (a body field), or a
// faker call `faker.<module>.<method>` with optional JSON arguments: `{{faker.number.int({"max":9})}}`.
// Faker is reseeded per reply, so the same request renders the same text. Faker amounts are
// bounded at compile (faker-bounds) and the rendered text is cut at MAX_TEMPLATE_OUTPUT.
// `faker.helpers.fake(PATTERN)` is compiled here too, each of its placeholders a faker call under
// the same bounds and run once: faker's own evaluated what its placeholders wrote as a pattern
// again, with no bound (one fixture held the event loop 50 s).
import type { Faker } from '@faker-js/faker';
import { fakerHas, fakerLater } from './faker.js';
import { checkFakerAmounts } from './faker-bounds.js';
import { MAX_TEMPLATE_OUTPUT } from './limits.js';
import type { Captures } from './match.js';

export interface TemplateScope {
  captures: Captures;
  model: string;
  style: string;
  lastUserMessage: string;
  body: Record<string, unknown>;
  /** Seed for faker calls; the same scope renders the same text. */
  fakerSeed: number;
}

type Segment =
  | { kind: 'literal'; text: string }
  | { kind: 'capture'; name: string }
  | { kind: 'field'; path: string[] }
  | { kind: 'faker'; call: (faker: Faker) => unknown };

export interface Template {
  /** Set when the template has no placeholder: its text never changes, so it can be pre-counted. */
  readonly constant: string | undefined;
  render(scope: TemplateScope): string;
}

const PLACEHOLDER = /\{\{\s*(.+?)\s*\}\}/g;
const faker = fakerLater();

function compileFaker(expression: string): FakerCall {
  const call = /^faker\.([A-Za-z]+)\.([A-Za-z]+)(?:\((.*)\))?$/s.exec(expression);
  if (!call) throw new Error(`"{{${expression}}}" is not a faker call like faker.person.firstName`);
  const [, module, method, rawArgs] = call as unknown as [string, string, string, string | undefined];
  if (!fakerHas(module, method)) {
    throw new Error(`"{{${expression}}}": faker has no ${module}.${method}`);
  }
  let args: unknown[] = [];
  if (rawArgs !== undefined && rawArgs.trim() !== '') {
    try {
      args = JSON.parse(`[${rawArgs}]`) as unknown[];
    } catch {
      throw new Error(`"{{${expression}}}": the arguments must be JSON values`);
    }
  }
  checkFakerAmounts(expression, module, method, args);
  if (module === 'helpers' && method === 'fake') return compileFakePattern(expression, args);
  return (f) => (f as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>>)[module]![method]!(...args);
}

type FakerCall = (f: Faker) => unknown;

/** Literal text and faker calls (`{{person.firstName}}`, faker's own spelling, without `faker.`). */
function compileFakeText(pattern: string): FakerCall {
  const parts: Array<string | FakerCall> = [];
  let last = 0;
  for (const match of pattern.matchAll(PLACEHOLDER)) {
    parts.push(pattern.slice(last, match.index), compileFaker(`faker.${match[1]!}`));
    last = match.index + match[0].length;
  }
  parts.push(pattern.slice(last));
  return (f) => {
    let out = '';
    for (const part of parts) {
      out += typeof part === 'string' ? part : stringify(part(f));
      if (out.length >= MAX_TEMPLATE_OUTPUT) break;
    }
    return out;
  };
}

/** `helpers.fake(PATTERN)` or `helpers.fake([PATTERN, ...])` (one picked per reply). */
function compileFakePattern(expression: string, args: readonly unknown[]): FakerCall {
  const patterns = typeof args[0] === 'string' ? [args[0]] : args[0];
  if (!Array.isArray(patterns) || patterns.length === 0 || !patterns.every((p) => typeof p === 'string')) {
    throw new Error(`"{{${expression}}}": faker.helpers.fake takes a pattern string or a list of them`);
  }
  const texts = (patterns as string[]).map(compileFakeText);
  return texts.length === 1 ? texts[0]! : (f) => f.helpers.arrayElement(texts)(f);
}

function compileName(expression: string, groupNames: readonly string[]): Segment {
  if (groupNames.includes(expression)) return { kind: 'capture', name: expression };
  if (expression === 'model' || expression === 'style' || expression === 'last_user_message') {
    return { kind: 'field', path: [expression] };
  }
  if (expression.startsWith('request.')) return { kind: 'field', path: ['request', ...expression.slice(8).split('.')] };
  if (expression.startsWith('faker.')) return { kind: 'faker', call: compileFaker(expression) };
  const known = [...groupNames, 'model', 'style', 'last_user_message', 'request.<field>', 'faker.<module>.<method>'];
  throw new Error(`unknown template name "{{${expression}}}"; known: ${known.join(', ')}`);
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function readField(scope: TemplateScope, path: string[]): unknown {
  const [head, ...rest] = path;
  if (head === 'model') return scope.model;
  if (head === 'style') return scope.style;
  if (head === 'last_user_message') return scope.lastUserMessage;
  let value: unknown = scope.body;
  for (const key of rest) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A text said as it is, whatever it holds. */
class LiteralTemplate implements Template {
  constructor(readonly constant: string) {}

  render(): string {
    return this.constant;
  }
}

export function literalTemplate(text: string): Template {
  return new LiteralTemplate(text);
}

/** Literal text and placeholders, each rendered in turn. */
class PlaceholderTemplate implements Template {
  readonly constant = undefined;
  private readonly usesFaker: boolean;

  constructor(private readonly segments: readonly Segment[]) {
    this.usesFaker = segments.some((s) => s.kind === 'faker');
  }

  render(scope: TemplateScope): string {
    if (this.usesFaker) faker().seed(scope.fakerSeed);
    let out = '';
    for (const segment of this.segments) {
      if (segment.kind === 'literal') out += segment.text;
      else if (segment.kind === 'capture') out += scope.captures[segment.name] ?? '';
      else if (segment.kind === 'field') out += stringify(readField(scope, segment.path));
      else out += stringify(segment.call(faker()));
      // A request field can be as long as the body: stop early, the rest would be cut anyway.
      if (out.length >= MAX_TEMPLATE_OUTPUT) break;
    }
    return out.length > MAX_TEMPLATE_OUTPUT ? out.slice(0, MAX_TEMPLATE_OUTPUT) : out;
  }
}

/** Throws an Error that names the bad placeholder. */
export function compileTemplate(source: string, groupNames: readonly string[] = []): Template {
  // Most replies hold no placeholder: `matchAll` copies its expression for each text (8 µs a fixture at load).
  if (!source.includes('{{')) return literalTemplate(source);
  const segments: Segment[] = [];
  let last = 0;
  for (const match of source.matchAll(PLACEHOLDER)) {
    if (match.index > last) segments.push({ kind: 'literal', text: source.slice(last, match.index) });
    segments.push(compileName(match[1]!, groupNames));
    last = match.index + match[0].length;
  }
  if (segments.length === 0) return literalTemplate(source);
  if (last < source.length) segments.push({ kind: 'literal', text: source.slice(last) });
  return new PlaceholderTemplate(segments);
}

/** Compiles every string inside a JSON value (tool-call arguments). */
export type ValueTemplate = (scope: TemplateScope) => unknown;

export function compileValueTemplate(value: unknown, groupNames: readonly string[] = []): ValueTemplate {
  if (typeof value === 'string') {
    const template = compileTemplate(value, groupNames);
    return template.constant !== undefined ? () => value : (scope) => template.render(scope);
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => compileValueTemplate(item, groupNames));
    return (scope) => items.map((item) => item(scope));
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => [key, compileValueTemplate(item, groupNames)] as const);
    return (scope) => Object.fromEntries(entries.map(([key, item]) => [key, item(scope)]));
  }
  return () => value;
}
