// Every semantic fault in every provider style (Ollama, OpenRouter, Azure OpenAI, Bedrock Converse
// and InvokeModel, Vertex's Gemini and Claude) through the provider's own client, whole and
// streamed: where the catalogue lists the style, the fault in the provider's own shape and the
// stream joined to the whole answer; where it does not, the answer as it was and the journal's
// `(not applicable)`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEMANTIC_FAULTS, type SemanticFaultName } from '../../src/conversation/faults.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { shippedScenarioFiles } from '../helpers/shipped.js';
import {
  type Ask,
  type Asked,
  azureClient,
  converseAsk,
  invokeAsk,
  ollamaAsk,
  openaiAsk,
  openrouterClient,
  type Said,
  vertexClaudeAsk,
  vertexGeminiAsk,
} from './provider-clients.js';

/** A provider's own words for each way an answer ends; `malformed` and `unexpected` where it has a stop of its own for them. */
interface Stops {
  end: string;
  length: string;
  tools: string;
  filter: string;
  refusal: string;
  malformed?: string;
  unexpected?: string;
}

interface Provider {
  name: string;
  style: string;
  ask: (url: string) => Ask;
  stops: Stops;
  /** The faults the style's catalogue entry leaves out, or that this wire cannot carry. */
  without: SemanticFaultName[];
  /** Whether a refusal is said in words (a Gemini SAFETY stop shows none). */
  refusalInWords: boolean;
  /** A whole answer carries a call's input as an object: `invalid_tool_json` only streams. */
  jsonOnlyStreamed?: boolean;
}

const OPENAI_STOPS: Stops = { end: 'stop', length: 'length', tools: 'tool_calls', filter: 'content_filter', refusal: 'stop' };
const MESSAGES_STOPS: Stops = { end: 'end_turn', length: 'max_tokens', tools: 'tool_use', filter: 'refusal', refusal: 'refusal' };

const PROVIDERS: Provider[] = [
  {
    name: 'ollama',
    style: 'ollama',
    ask: ollamaAsk,
    stops: { end: 'stop', length: 'length', tools: 'stop', filter: '', refusal: 'stop' },
    without: ['invalid_tool_json', 'duplicate_tool_ids', 'content_filter'],
    refusalInWords: true,
  },
  { name: 'openrouter', style: 'openrouter', ask: (url) => openaiAsk(openrouterClient(url), 'openai/gpt-4o-mini', 'openai/o4-mini'), stops: OPENAI_STOPS, without: [], refusalInWords: true },
  { name: 'azure-openai', style: 'azure-openai', ask: (url) => openaiAsk(azureClient(url), 'gpt-4o-mini', 'o4-mini'), stops: OPENAI_STOPS, without: [], refusalInWords: true },
  {
    name: 'bedrock Converse',
    style: 'bedrock',
    ask: converseAsk,
    stops: { end: 'end_turn', length: 'max_tokens', tools: 'tool_use', filter: 'content_filtered', refusal: 'content_filtered', malformed: 'malformed_tool_use' },
    without: [],
    refusalInWords: true,
  },
  { name: 'bedrock InvokeModel', style: 'bedrock', ask: invokeAsk, stops: MESSAGES_STOPS, without: [], refusalInWords: true, jsonOnlyStreamed: true },
  { name: 'vertex Claude', style: 'vertex', ask: vertexClaudeAsk, stops: MESSAGES_STOPS, without: ['duplicate_tool_ids'], refusalInWords: true, jsonOnlyStreamed: true },
  {
    name: 'vertex Gemini',
    style: 'vertex',
    ask: vertexGeminiAsk,
    stops: { end: 'STOP', length: 'MAX_TOKENS', tools: 'STOP', filter: 'SAFETY', refusal: 'SAFETY', malformed: 'MALFORMED_FUNCTION_CALL', unexpected: 'UNEXPECTED_TOOL_CALL' },
    without: ['duplicate_tool_ids'],
    refusalInWords: false,
  },
];

const REFUSAL = /can't|not able/;
const GERMAN = /\b(Sie|Ihre|den|die|ist|für)\b/;
const MODEL_FAULTS = SEMANTIC_FAULTS.filter((fault) => fault !== 'malformed_result');

/** What each fault is asked with: tool faults need a tool, reasoning_only a request that asks for reasoning. */
const ASKED: Record<(typeof MODEL_FAULTS)[number], Asked> = {
  invalid_tool_json: 'tools',
  schema_violation: 'tools',
  unknown_tool: 'tools',
  duplicate_tool_ids: 'tools',
  truncated: 'plain',
  empty: 'plain',
  refusal: 'plain',
  content_filter: 'plain',
  reasoning_only: 'reasoning',
  wrong_language: 'plain',
};

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The fault as the provider's client meets it. */
function expectFault(fault: SemanticFaultName, said: Said, { stops, refusalInWords }: Provider): void {
  const [call] = said.calls;
  switch (fault) {
    case 'invalid_tool_json':
      if (stops.malformed) return void expect([said.stop, said.calls]).toEqual([stops.malformed, []]);
      expect(said.stop).toBe(stops.tools);
      return void expect(parses(call!.args)).toBe(false);
    case 'schema_violation': {
      expect(said.stop).toBe(stops.tools);
      const args = JSON.parse(call!.args) as Record<string, unknown>;
      return void expect(typeof args.city === 'string' && Object.keys(args).length === 1).toBe(false);
    }
    case 'unknown_tool':
      expect(said.stop).toBe(stops.unexpected ?? stops.tools);
      return void expect(call!.name).not.toBe('get_weather');
    case 'duplicate_tool_ids':
      expect(said.stop).toBe(stops.tools);
      return void expect([said.calls.length, said.calls[1]!.id]).toEqual([2, call!.id]);
    case 'truncated':
      expect(said.stop).toBe(stops.length);
      return void expect(said.text).not.toBe('');
    case 'empty':
      return void expect([said.text, said.calls, said.stop]).toEqual(['', [], stops.end]);
    case 'refusal':
      expect(said.stop).toBe(stops.refusal);
      return void expect(said.refusal || said.text).toMatch(refusalInWords ? REFUSAL : /^$/);
    case 'content_filter':
      return void expect([said.text, said.calls, said.stop]).toEqual(['', [], stops.filter]);
    case 'reasoning_only':
      expect([said.text, said.calls, said.stop]).toEqual(['', [], stops.end]);
      return void expect(said.reasoning).not.toBe('');
    case 'wrong_language':
      return void expect(said.text).toMatch(GERMAN);
    case 'malformed_result':
      return;
  }
}

/** Ids differ between two answers; what was said must not. */
function withoutIds(said: Said) {
  return { ...said, calls: said.calls.map(({ name, args }) => ({ name, args })) };
}

let server: TestServer;
let catalogue: Array<{ name: string; kind: string; styles: string[] }>;
let sessions = 0;

beforeAll(async () => {
  const german = 'scenarios:\n  - name: german\n    steps: [ { fault: wrong_language, language: de } ]\n';
  server = await startTestServer({ scenarioFiles: { ...shippedScenarioFiles(), 'german.yaml': german } });
  catalogue = ((await (await server.admin('/faults')).json()) as { faults: typeof catalogue }).faults;
});
afterAll(() => server.close());

async function journalFault(session: string): Promise<string> {
  const { requests } = (await (await server.admin(`/requests?session=${session}`)).json()) as { requests: Array<{ fault: string }> };
  return requests[0]!.fault;
}

async function heard(provider: Provider, fault: SemanticFaultName, streamed: boolean): Promise<{ said: Said; fault: string }> {
  const session = `provider-faults-${sessions++}`;
  const scenario = fault === 'wrong_language' ? 'german' : fault;
  const said = await provider.ask(server.url)(ASKED[fault as keyof typeof ASKED], streamed, { 'x-mock-scenario': scenario, 'x-mock-session': session });
  return { said, fault: await journalFault(session) };
}

describe.each(PROVIDERS)('semantic faults through the $name client', (provider) => {
  it("the catalogue lists for the style exactly the faults its wires carry", () => {
    const listed = catalogue.filter((entry) => entry.kind === 'semantic' && entry.styles.includes(provider.style)).map((entry) => entry.name);
    const wires = PROVIDERS.filter((other) => other.style === provider.style);
    const carried = MODEL_FAULTS.filter((fault) => wires.some((wire) => !wire.without.includes(fault)));
    expect(listed.sort()).toEqual([...carried].sort());
  });

  it.each(MODEL_FAULTS)('%s', async (fault) => {
    const whole = await heard(provider, fault, false);
    const streamed = await heard(provider, fault, true);
    if (provider.without.includes(fault)) {
      expect([whole.fault, streamed.fault]).toEqual([`${fault} (not applicable)`, `${fault} (not applicable)`]);
      expect(withoutIds(streamed.said)).toEqual(withoutIds(whole.said));
      return;
    }
    expectFault(fault, streamed.said, provider);
    expect(streamed.fault).toBe(fault);
    if (fault === 'invalid_tool_json' && provider.jsonOnlyStreamed) {
      expect(whole.fault).toBe(`${fault} (not applicable)`);
      return expect(parses(whole.said.calls[0]!.args)).toBe(true);
    }
    expectFault(fault, whole.said, provider);
    expect(whole.fault).toBe(fault);
    expect(withoutIds(streamed.said)).toEqual(withoutIds(whole.said));
  });
});
