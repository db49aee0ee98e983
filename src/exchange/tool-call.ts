// A call of a fake MCP server's tool (SPEC 22) as a plan, the same for every transport: the
// scenario step, the answer (a reply, a generated result, an error the result reports) and,
// once the transport has sent it or dropped it, the one served event of the call.
import { answerTool, malformedResult, type McpServerFake, type ToolAnswer } from '../conversation/mcp-tools.js';
import { decideToolStep } from '../scenarios/tool-step.js';
import type { Session } from '../state/session.js';
import { newNotes } from './exchange.js';
import type { Mock } from './mock.js';
import { nextRequestId } from './request.js';
import { serve } from './served.js';

export const TOOL_STYLE = 'mcp';

export interface ToolCall {
  server: McpServerFake;
  name: string;
  args: Record<string, unknown>;
  session: Session;
  /** What the transport's request came with: `x-mock-scenario` names a scenario as on model routes. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface ToolCallPlan {
  /** How long to wait before answering (a scenario's delay or timeout). */
  waitMs: number;
  /** What to answer: a tool result, a JSON-RPC error for a tool the server does not declare, or nothing (`reset`: drop the connection). */
  answer: { result: ToolAnswer['result'] } | { refused: string } | { reset: true };
  /** Serves the call, once its answer is through. */
  done(): void;
}

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value) || undefined;

function answerOf(mock: Mock, call: ToolCall): { plan: ToolCallPlan['answer']; waitMs: number; notes: ReturnType<typeof newNotes> } {
  const notes = newNotes(TOOL_STYLE);
  const tool = call.server.tools.get(call.name);
  if (!tool) {
    const names = [...call.server.tools.keys()].join(', ') || 'none';
    return { plan: { refused: `Unknown tool '${call.name}' on MCP server '${call.server.name}'. Its tools: ${names}.` }, waitMs: 0, notes };
  }
  const sources = { header: single(call.headers['x-mock-scenario']), session: call.session.scenario, global: mock.sessions.globalScenario };
  const step = decideToolStep(sources, mock.store.current.scenarios, call.session, call.server.name, call.name);
  Object.assign(notes, { scenario: step.scenario?.name ?? null, scenarioStep: step.scenario?.step ?? null, fault: step.error?.kind ?? step.fault ?? null });
  const waitMs = step.waitMs ?? 0;
  if (step.error) return { plan: { result: { content: [{ type: 'text', text: `${step.error.kind}: ${step.error.message}` }], isError: true } }, waitMs, notes };
  if (step.fault === 'reset') return { plan: { reset: true }, waitMs, notes };
  if (step.fault === 'malformed_result') return { plan: { result: malformedResult(tool, mock.options.seed) }, waitMs, notes };
  const answer = answerTool(tool, call.args, call.session.id, mock.options.seed);
  notes.fixture = answer.reply;
  return { plan: { result: answer.result }, waitMs, notes };
}

export function planToolCall(mock: Mock, call: ToolCall): ToolCallPlan {
  const startMs = performance.now();
  const id = nextRequestId(mock, call.session.id);
  const path = `/mcp/${call.server.name}`;
  const { plan, waitMs, notes } = answerOf(mock, call);
  return {
    waitMs,
    answer: plan,
    done() {
      const result = 'result' in plan ? plan.result : 'refused' in plan ? { error: plan.refused } : null;
      serve(mock, {
        id,
        session: call.session,
        method: 'POST',
        path,
        route: '/mcp/:server',
        operation: 'execute_tool',
        status: 200,
        notes,
        startMs,
        endMs: performance.now(),
        headers: call.headers,
        body: JSON.stringify({ name: call.name, arguments: call.args }),
        response: result === null ? 'null' : JSON.stringify({ status: 200, headers: {}, body: result }),
        mcp: { server: call.server.name, tool: call.name, is_error: !('result' in plan) || plan.result.isError === true },
      });
    },
  };
}
