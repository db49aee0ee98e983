// The fake tool servers compiled from `mcp:` specs, and a tool call answered as data: the
// arguments checked against the tool's input schema, the first reply whose match holds, else a
// result generated from the output schema, seeded like chat replies. Nothing here talks MCP.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { CompileError } from './compile-error.js';
import { atFirstUse } from './first-use.js';
import { contains } from './json-subset.js';
import type { McpReplySpec, McpServerSpec, McpToolSpec } from './mcp-schema.js';
import { generateProse } from './prose.js';
import { seededRandom } from './random.js';
import { generateFromSchema } from './schema-gen.js';
import type { JsonSchema } from './types.js';

const ajvPackage = atFirstUse<typeof import('ajv')>('ajv');
let ajv: Ajv | undefined;

export interface McpTool {
  server: string;
  spec: McpToolSpec;
  input: JsonSchema;
  /** The input schema's check, compiled at the first call for a tool of a shipped file. */
  checkInput: () => ValidateFunction;
  replies: readonly McpReplySpec[];
}

export interface McpServerFake {
  name: string;
  file: string;
  spec: McpServerSpec;
  tools: ReadonlyMap<string, McpTool>;
}

/** What a tool call answered: the result as MCP sends it, and the reply that made it (null: generated). */
export interface ToolAnswer {
  result: { content: unknown[]; structuredContent?: Record<string, unknown>; isError?: true };
  reply: string | null;
}

/** An ajv error's place as a path of the value checked, e.g. `arguments.city` or `structured.days[0]`. */
export function errorPath(root: string, error: ErrorObject): string {
  const steps = error.instancePath.split('/').slice(1).map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
  const missing = error.keyword === 'required' ? [(error.params as { missingProperty: string }).missingProperty] : [];
  return [...steps, ...missing].reduce((out, step) => (/^\d+$/.test(step) ? `${out}[${step}]` : `${out}.${step}`), root);
}

export function describeErrors(root: string, errors: readonly ErrorObject[] | null | undefined): string {
  const error = errors?.[0];
  if (!error) return `${root} is invalid`;
  return error.keyword === 'required' ? `${errorPath(root, error)} is required` : `${errorPath(root, error)} ${error.message ?? 'is invalid'}`;
}

function compileSchema(schema: JsonSchema, path: Array<string | number>): ValidateFunction {
  try {
    // `strict: false`: tool schemas written for other validators carry keywords ajv does not know.
    ajv ??= new (ajvPackage().Ajv)({ strict: false, allErrors: false, validateSchema: true });
    return ajv.compile(schema);
  } catch (error) {
    throw new CompileError(path, `not a JSON Schema: ${(error as Error).message}`);
  }
}

function checkReply(reply: McpReplySpec, tool: McpToolSpec, checkOutput: ValidateFunction | undefined, path: Array<string | number>): void {
  const given = [reply.error, reply.structured, reply.content].filter((part) => part !== undefined).length;
  if (reply.error !== undefined && given > 1) throw new CompileError([...path, 'error'], 'an error reply gives no `structured` or `content`');
  if (given === 0) throw new CompileError(path, 'a reply gives `structured`, `content` or `error`');
  if (reply.error !== undefined) return;
  if (!checkOutput) {
    if (reply.structured !== undefined) throw new CompileError([...path, 'structured'], `the tool "${tool.name}" has no \`output\` schema: its replies give \`content\` only`);
    return;
  }
  if (reply.structured === undefined) throw new CompileError(path, `the tool "${tool.name}" has an \`output\` schema: each reply gives \`structured\` (the MCP clients require structuredContent)`);
  if (!checkOutput(reply.structured)) throw new CompileError([...path, 'structured'], `does not fit the tool's output schema: ${describeErrors('structured', checkOutput.errors)}`);
}

function compileTool(server: string, spec: McpToolSpec, path: Array<string | number>, shipped: boolean): McpTool {
  const input: JsonSchema = spec.input ?? { type: 'object' };
  if (input.type !== 'object') throw new CompileError([...path, 'input', 'type'], 'a tool\'s input schema has `type: object` (MCP passes arguments as an object)');
  const tool = { server, spec, input, replies: spec.replies ?? [] };
  if (shipped) {
    // Its schemas and replies were checked when the package was built (scripts/shipped-yaml.mjs):
    // ajv, about 100 ms of a start, is loaded at the first call instead.
    let checkInput: ValidateFunction | undefined;
    return { ...tool, checkInput: () => (checkInput ??= compileSchema(input, [...path, 'input'])) };
  }
  const checkInput = compileSchema(input, [...path, 'input']);
  const checkOutput = spec.output === undefined ? undefined : compileSchema(spec.output, [...path, 'output']);
  spec.replies?.forEach((reply, i) => checkReply(reply, spec, checkOutput, [...path, 'replies', i]));
  return { ...tool, checkInput: () => checkInput };
}

/**
 * A server's fake from its spec. Each bad tool is handed to `report` and left out, and the rest
 * still compile, so one load names every bad tool rather than the first. `shipped`: the spec is
 * one of the package's own files, byte for byte, checked when the package was built.
 */
export function compileMcpServer(spec: McpServerSpec, file: string, report: (problem: CompileError) => void, shipped = false): McpServerFake {
  const tools = new Map<string, McpTool>();
  const names = new Set<string>();
  spec.tools.forEach((tool, i) => {
    try {
      if (names.has(tool.name)) throw new CompileError(['tools', i, 'name'], `the tool "${tool.name}" is declared twice on server "${spec.server}"`);
      names.add(tool.name);
      tools.set(tool.name, compileTool(spec.server, tool, ['tools', i], shipped));
    } catch (error) {
      if (!(error instanceof CompileError)) throw error;
      report(error);
    }
  });
  return { name: spec.server, file, spec, tools };
}

function resultOf(reply: McpReplySpec): ToolAnswer['result'] {
  if (reply.error !== undefined) return { content: [{ type: 'text', text: reply.error }], isError: true };
  const content = reply.content ?? [{ type: 'text', text: JSON.stringify(reply.structured) }];
  return reply.structured === undefined ? { content } : { content, structuredContent: reply.structured };
}

/** A tool's answer to `args` in `session`; arguments that break the input schema get a tool error naming the path. */
export function answerTool(tool: McpTool, args: Record<string, unknown>, session: string, seed: number): ToolAnswer {
  const checkInput = tool.checkInput();
  if (!checkInput(args)) {
    return { result: { content: [{ type: 'text', text: `Invalid arguments for tool ${tool.spec.name}: ${describeErrors('arguments', checkInput.errors)}.` }], isError: true }, reply: null };
  }
  const index = tool.replies.findIndex(({ match }) => (match?.session === undefined || match.session === session) && (match?.args === undefined || contains(args, match.args)));
  const reply = tool.replies[index];
  if (reply) return { result: resultOf(reply), reply: reply.name ?? `${tool.server}/${tool.spec.name}#${index}` };
  const random = seededRandom(seed, tool.server, tool.spec.name, JSON.stringify(args));
  if (!tool.spec.output) return { result: { content: [{ type: 'text', text: generateProse(random, 40) }] }, reply: null };
  const structured = generateFromSchema(tool.spec.output, random) as Record<string, unknown>;
  return { result: { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }, reply: null };
}

/** A result that breaks the tool's output schema (the `malformed_result` fault): a property of the wrong type, or text that is not the JSON it starts as. */
export function malformedResult(tool: McpTool, seed: number): ToolAnswer['result'] {
  if (!tool.spec.output) return { content: [{ type: 'text', text: '{"result": "cut sho' }] };
  const structured = { ...(generateFromSchema(tool.spec.output, seededRandom(seed, tool.server, tool.spec.name, 'malformed')) as Record<string, unknown>) };
  const properties = (tool.spec.output.properties ?? {}) as Record<string, { type?: unknown }>;
  const [key, property] = Object.entries(properties)[0] ?? ['malformed', {}];
  structured[key] = property.type === 'string' ? 42 : 'malformed';
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}
