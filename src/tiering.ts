// When V8 optimises the command's code. A load test's first burst on a server just started is
// where most of its compiling happens: at V8's default, TurboFan compiled the stream path's
// functions on a background thread while a thousand paced streams ran, and that thread's CPU was
// about a third of the burst's (docs/performance.md, "The first burst's warm-up"). With four
// times the interrupt budget a function is optimised after about four times the work, so the
// rarer paths of a burst stay in baseline code and the compiles left are the hot ones.
import { setFlagsFromString } from 'node:v8';
import { given } from './heap.js';

const FLAG = '--interrupt-budget';
/** V8 11's default is 66 KB of bytecode run; this is four times that. */
export const INTERRUPT_BUDGET = 4 * 67584;

/** Whether node was started with an interrupt budget of its own (`node --interrupt-budget=N`): then it is left as it is. */
export function interruptBudgetGiven(execArgv: readonly string[]): boolean {
  return given(execArgv, [FLAG]);
}

/** Only for a process the mock owns (the command): a process that embeds the mock keeps its own settings. */
export function setTiering(): void {
  if (!interruptBudgetGiven(process.execArgv)) setFlagsFromString(`${FLAG}=${INTERRUPT_BUDGET}`);
}
