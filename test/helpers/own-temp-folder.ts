// Every test file gets a temp folder of its own as the OS temp dir (TMPDIR, which os.tmpdir()
// and the child processes it starts read), removed with all it holds when the file ends: a test
// that forgets its folder, or a process that dies before cleaning up, leaves nothing behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const system = process.env.MGM_SYSTEM_TMPDIR ?? tmpdir();
process.env.MGM_SYSTEM_TMPDIR = system;
const own = mkdtempSync(join(system, 'mgm-file-'));
process.env.TMPDIR = own;

afterAll(() => {
  process.env.TMPDIR = system;
  rmSync(own, { recursive: true, force: true, maxRetries: 3 });
});
