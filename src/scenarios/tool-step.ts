// The scenario step of a fake MCP tool's call (SPEC 22), as data: only a scenario whose
// `match.tool` names the tool (`SERVER/TOOL`, or `TOOL` on any server) applies to it, and its
// step is an error the tool result reports, a wait, a dropped connection or a malformed result.
import type { MockError } from '../conversation/errors.js';
import type { ScenarioSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';
import type { Session } from '../state/session.js';
import { takeStep } from './apply.js';
import { chooseScenario, type ScenarioSources } from './choose.js';
import { notApplicable } from '../conversation/faults.js';
import { faultOf, stepError, TIMEOUT_MS } from './outcome.js';

export interface ToolStep {
  scenario?: { name: string; step: number | null };
  /** Reported as a tool result with `isError`, after `waitMs`. */
  error?: MockError;
  waitMs?: number;
  /** A fault named as the step names it; a fault that means nothing to a tool call is noted `(not applicable)`. */
  fault?: string;
}

const TOOL_FAULTS = new Set(['delay', 'reset', 'malformed_result']);

export function decideToolStep(
  sources: ScenarioSources,
  scenarios: ReadonlyMap<string, Compiled<ScenarioSpec>>,
  session: Session,
  server: string,
  tool: string,
): ToolStep {
  const chosen = chooseScenario(sources, scenarios);
  const wanted = chosen?.spec.match?.tool;
  if (!chosen || (wanted !== tool && wanted !== `${server}/${tool}`)) return {};
  const { step, index } = takeStep(session, chosen);
  const scenario = { name: chosen.name, step: index < chosen.spec.steps.length ? index : null };
  if ('pass' in step) return { scenario };
  if ('fault' in step && step.fault !== undefined) {
    if (!TOOL_FAULTS.has(step.fault)) return { scenario, fault: notApplicable(step.fault) };
    const decided = faultOf(step);
    return { scenario, fault: step.fault, waitMs: 'fault' in decided && decided.fault.kind === 'delay' ? decided.fault.ms : 0 };
  }
  return { scenario, error: stepError(step.error, step), waitMs: step.delay_ms ?? (step.error === 'timeout' ? TIMEOUT_MS : 0) };
}
