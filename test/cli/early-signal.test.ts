// A parent that stops the mock as soon as it reads the listening line (a test's teardown right
// after its start) meets the graceful stop and an exit code of 0, even while the first start is
// still making its local CA: the signal's default would end the process with no exit code, and a
// caller waiting for the exit of a process that had already gone would wait for good.
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, tempDir, type ServingMock } from '../hardening/cli-run.js';
import { ensureBuilt } from '../helpers/built.js';

const kept = process.env.XDG_DATA_HOME;
const started: ServingMock[] = [];

beforeAll(ensureBuilt, 300_000);
beforeAll(() => {
  // A home with no CA yet: the start makes one after its listening line.
  process.env.XDG_DATA_HOME = tempDir();
});

afterAll(() => {
  if (kept === undefined) delete process.env.XDG_DATA_HOME;
  else process.env.XDG_DATA_HOME = kept;
  for (const { child } of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('a signal right after the listening line', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s ends the mock with exit code 0', async (signal) => {
    const mock = await serve('--no-watch', '--latency', 'none');
    started.push(mock);
    mock.child.kill(signal);
    const [code, killedBy] = (await once(mock.child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect({ code, killedBy }).toEqual({ code: 0, killedBy: null });
  }, 60_000);
});
