// The drift command's report: text for a terminal, JSON for a script, JUnit (one test case per
// request) for a CI dashboard. Pure: results in, text out.
import * as junitReport from 'junit-report-builder';
import type { Builder } from 'junit-report-builder';
import type { DriftFinding } from './styles/drift-shapes.js';

export interface DriftCase {
  /** The fixture or `drift:` entry the request comes from. */
  name: string;
  file: string;
  /** `POST /v1/chat/completions`, as asked (query included). */
  endpoint: string;
  style: string;
}

export interface DriftResult {
  case: DriftCase;
  findings: DriftFinding[];
  /** Why this request could not be compared (the mock refused it, say). */
  error?: string;
}

export type DriftFormat = 'text' | 'json' | 'junit';

function findingLine(finding: DriftFinding): string {
  return `${finding.path}: ${finding.kind} (upstream: ${finding.upstream}; mock: ${finding.mock})`;
}

function text(results: readonly DriftResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    if (result.findings.length === 0 && !result.error) continue;
    lines.push(`${result.case.endpoint} ${result.case.style} ${result.case.name} (${result.case.file})`);
    if (result.error) lines.push(`  could not compare: ${result.error}`);
    for (const finding of result.findings) lines.push(`  ${findingLine(finding)}`);
  }
  const { findings, drifted, uncompared } = tally(results);
  lines.push(`${counted(results.length, 'request')} asked; ${counted(findings, 'finding')} in ${drifted} of them; ${uncompared} could not be compared.`);
  return `${lines.join('\n')}\n`;
}

const counted = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A request that could not be compared is a finding too (SPEC 18), and counted apart as well. */
function tally(results: readonly DriftResult[]): { findings: number; drifted: number; uncompared: number } {
  const uncompared = results.filter((result) => result.error !== undefined).length;
  const findings = results.reduce((sum, result) => sum + result.findings.length, 0) + uncompared;
  const drifted = results.filter((result) => result.findings.length > 0 || result.error !== undefined).length;
  return { findings, drifted, uncompared };
}

function junitXml(results: readonly DriftResult[]): string {
  // A CommonJS module: under NodeNext its builder is the namespace's `default`, which its types miss.
  const builder = (junitReport.default as unknown as Builder).newBuilder();
  const suite = builder.testSuite().name('drift');
  for (const result of results) {
    const testCase = suite.testCase().className(`drift.${result.case.style}`).name(`${result.case.endpoint} ${result.case.name}`).file(result.case.file);
    if (result.error) testCase.error(result.error);
    else if (result.findings.length > 0) testCase.failure(`${result.findings.length} findings: ${result.findings.map(findingLine).join('; ')}`);
  }
  return builder.build();
}

/** 1 when any request drifted or could not be compared, else 0 (2, an upstream not asked at all, is thrown before). */
export function driftExitCode(results: readonly DriftResult[]): 0 | 1 {
  return results.some((result) => result.findings.length > 0 || result.error) ? 1 : 0;
}

export function driftReport(results: readonly DriftResult[], format: DriftFormat): string {
  if (format === 'json') {
    const { findings, uncompared } = tally(results);
    return `${JSON.stringify({ requests: results.length, findings, not_compared: uncompared, results }, null, 2)}\n`;
  }
  if (format === 'junit') return junitXml(results);
  return text(results);
}
