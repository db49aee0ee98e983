// The tools' text their tokens are counted from is JSON.stringify's, whether it was made now or
// given back for a list equal to one met before: a list that differs anywhere (a leaf, a key's
// order, a key more or less, an array's length) is written afresh, so usage figures never change.
import { describe, expect, it } from 'vitest';
import { toolsJson } from '../../src/conversation/tools-json.js';
import type { ToolDef } from '../../src/conversation/types.js';

function agentTools(): ToolDef[] {
  return ['Write', 'Read', 'Bash'].map((name) => ({
    name,
    description: `${name} a file.`,
    parameters: {
      type: 'object',
      properties: { file_path: { type: 'string', description: 'The path.' }, limit: { type: 'integer' } },
      required: ['file_path'],
    },
  }));
}

type Change = (tools: ToolDef[]) => void;

const changes: [string, Change][] = [
  ['a description', (tools) => (tools[1]!.description = 'Read a file whole.')],
  ['a description left out', (tools) => (tools[1]!.description = undefined)],
  ['a nested leaf', (tools) => ((tools[2]!.parameters.properties as Record<string, { type: string }>).limit!.type = 'number')],
  ['a leaf of another type', (tools) => ((tools[2]!.parameters.properties as Record<string, { type: unknown }>).limit!.type = 1)],
  ['a key more', (tools) => (tools[0]!.parameters.additionalProperties = false)],
  ['a key less', (tools) => delete tools[0]!.parameters.required],
  [
    'the same keys in another order',
    (tools) => {
      const { type, properties, required } = tools[0]!.parameters;
      tools[0]!.parameters = { required, type, properties };
    },
  ],
  ['an array longer', (tools) => (tools[0]!.parameters.required as string[]).push('limit')],
  ['an object for an array', (tools) => (tools[0]!.parameters.required = { 0: 'file_path' })],
  ['an empty object for an empty array', (tools) => (tools[0]!.parameters.required = [])],
  ['the tools in another order', (tools) => tools.reverse()],
  ['a tool more', (tools) => tools.push({ name: 'Grep', parameters: {} })],
];

describe("the tools' text for their count", () => {
  it('is JSON.stringify of the tools, for an equal list met before and for each list that differs', () => {
    expect(toolsJson(agentTools())).toBe(JSON.stringify(agentTools()));
    expect(toolsJson(agentTools())).toBe(JSON.stringify(agentTools()));
    for (const [what, change] of changes) {
      const tools = agentTools();
      change(tools);
      expect(toolsJson(tools), what).toBe(JSON.stringify(tools));
      // And back: the list met first is still answered with its own text.
      expect(toolsJson(agentTools()), `${what}, then the first list`).toBe(JSON.stringify(agentTools()));
    }
  });

  it('writes afresh a list holding what JSON.stringify writes its own way', () => {
    const dated = (when: Date): ToolDef[] => [{ name: 'Write', parameters: { since: when } }];
    expect(toolsJson(dated(new Date(0)))).toBe(JSON.stringify(dated(new Date(0))));
    expect(toolsJson(dated(new Date(1000)))).toBe(JSON.stringify(dated(new Date(1000))));
  });
});
