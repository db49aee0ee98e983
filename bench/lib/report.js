// The table: one row per figure, with what it is compared to and whether the goal holds.

/**
 * @typedef {object} Row
 * @property {string} metric
 * @property {number} mock
 * @property {number} [baseline] the figure it is compared with (bare server, 10 fixtures, plain node)
 * @property {string} [baselineIs] what the baseline is
 * @property {number} [ratio] mock / baseline
 * @property {string} goal as text, `-` when the row is for information
 * @property {boolean} [met] undefined when there is no goal
 */

function ratioOf(mock, baseline) {
  return baseline === undefined || baseline === 0 ? undefined : mock / baseline;
}

/** A row whose goal is on the ratio (`atLeast` or `atMost` times the baseline). */
export function ratioRow(metric, mock, baseline, baselineIs, { atLeast, atMost }) {
  const ratio = ratioOf(mock, baseline);
  const goal = atLeast !== undefined ? `ratio ≥ ${atLeast}` : `ratio ≤ ${atMost}`;
  const met = ratio === undefined ? false : atLeast !== undefined ? ratio >= atLeast : ratio <= atMost;
  return { metric, mock, baseline, baselineIs, ratio, goal, met };
}

/** A row whose goal is on the figure itself (`below` a limit), or none. */
export function limitRow(metric, mock, { below, baseline, baselineIs } = {}) {
  return {
    metric,
    mock,
    baseline,
    baselineIs,
    ratio: ratioOf(mock, baseline),
    goal: below === undefined ? '-' : `< ${below}`,
    met: below === undefined ? undefined : mock < below,
  };
}

function figure(value) {
  if (value === undefined || Number.isNaN(value)) return '-';
  // A count (the waves let go on their own) reads as one, not as 2.00.
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function formatTable(rows) {
  const header = ['metric', 'mock', 'baseline', 'ratio', 'goal', 'met'];
  const cells = rows.map((row) => [
    row.metric,
    figure(row.mock),
    row.baseline === undefined ? '-' : `${figure(row.baseline)} ${row.baselineIs ?? ''}`.trim(),
    row.ratio === undefined ? '-' : row.ratio.toFixed(2),
    row.goal,
    row.met === undefined ? '' : row.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i].length)));
  const line = (values) => `| ${values.map((value, i) => (i === 0 ? value.padEnd(widths[i]) : value.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...cells.map(line)].join('\n');
}
