// The closing line of CI: the vitest JSON report and the pytest JUnit report added up. A report
// that is missing or empty (its runner never got to write it) counts nothing; the run's exit
// status says that it failed.
import { readFileSync } from 'node:fs';

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function vitestCounts(text) {
  if (text.trim() === '') return { passed: 0, failed: 0 };
  const report = JSON.parse(text);
  return { passed: report.numPassedTests, failed: report.numFailedTests };
}

// pytest writes one <testsuite> whose attributes hold the totals.
function junitCounts(text) {
  const suite = /<testsuite\b[^>]*>/.exec(text)?.[0];
  if (!suite) return { passed: 0, failed: 0 };
  const count = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
  const failed = count('failures') + count('errors');
  return { passed: count('tests') - failed - count('skipped'), failed };
}

const [vitestReport, junitReport] = process.argv.slice(2);
const suites = [vitestCounts(read(vitestReport)), junitCounts(read(junitReport))];
const total = (key) => suites.reduce((sum, counts) => sum + counts[key], 0);
console.log(`Tests: ${total('passed')} passed, ${total('failed')} failed`);
