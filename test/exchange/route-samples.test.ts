// The route tables drive their tests: every row of MODEL_ROUTES and ADMIN_ROUTES has a sample
// (test/helpers/samples/), and each sample runs through the seam, no socket, answering for its
// door with the status and the notes a user would see. A new row without a sample fails here.
import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../../src/admin/routes.js';
import { sourceOf } from '../../src/exchange/exchange.js';
import { MODEL_ROUTES, modelRoute, type ModelRoute } from '../../src/exchange/model-routes.js';
import { plainMock } from '../helpers/mock.js';
import { runSample } from '../helpers/sample-seam.js';
import { isAdminKey, ROW_SAMPLES, SAMPLE_SCENARIOS } from '../helpers/samples/index.js';

const TABLE_KEYS = [...MODEL_ROUTES, ...ADMIN_ROUTES].map((row) => `${row.method} ${row.path}`);

describe('the samples of the route tables', () => {
  it('name each row once, and only rows the tables have', () => {
    const keys = ROW_SAMPLES.map((row) => row.key);
    expect(keys.filter((key) => !TABLE_KEYS.includes(key)), 'samples of rows no table has').toEqual([]);
    expect(keys.filter((key, at) => keys.indexOf(key) !== at), 'rows sampled twice').toEqual([]);
  });

  it.each(TABLE_KEYS)('%s answers its samples through the seam', async (key) => {
    const row = ROW_SAMPLES.find((found) => found.key === key);
    if (!row) throw new Error(`The row ${key} has no sample: add one in test/helpers/samples/.`);
    const [method, path] = key.split(' ') as [ModelRoute['method'], string];
    if (!isAdminKey(key)) expect(modelRoute(method, path).door.style, `the door of ${key}`).toBe(row.door);
    // A mock of its own per row: a sample that moves the clock or saves a fixture changes no other's answer.
    const mock = plainMock({ scenarios: SAMPLE_SCENARIOS });
    for (const [at, sample] of row.samples.entries()) {
      const context = `${key}${sample.label ? ` (${sample.label})` : ''}`;
      const answered = await runSample(mock, key, sample, `sample-${at}`);
      expect(answered.status, `${context} answered: ${answered.message ?? JSON.stringify(answered.body)?.slice(0, 300)}`).toBe(sample.status);
      if (isAdminKey(key)) continue;
      const notes = answered.notes!;
      expect(notes.style, `${context}: the journal's style`).toBe(row.door);
      if (sample.model !== undefined) expect(notes.model, `${context}: the model noted`).toBe(sample.model);
      if (sample.source !== undefined) expect(sourceOf(notes, answered.status), `${context}: x-mock-source`).toBe(sample.source);
    }
  });
});
