// `npm test` leaves the OS temp dir as it found it: what a test makes there (a fixtures folder, a
// 50 MB file, a child process's recording) lives in its file's own folder, removed after it.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

describe('temp folders', () => {
  it('are made in a folder of this file alone, which child processes use too', async () => {
    const own = tmpdir();
    expect(basename(own)).toMatch(/^mgm-file-/);
    expect(dirname(own)).toBe(process.env.MGM_SYSTEM_TMPDIR);
    const made = mkdtempSync(join(tmpdir(), 'mgm-left-'));
    writeFileSync(join(made, 'huge.yaml'), 'x');
    const { stdout } = await promisify(execFile)(process.execPath, ['-p', "require('node:os').tmpdir()"]);
    expect(stdout.trim()).toBe(own);
    expect(existsSync(made)).toBe(true);
  });
});
