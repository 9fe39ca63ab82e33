import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

/** The built command line (`npm test` builds first). */
export const BIN = resolve(import.meta.dirname, '../../bin/cairn.js');

/** Runs `cairn <args>` with logging off; resolves with its exit code and output. */
export function cairn(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'silent' } }, (error, stdout, stderr) => {
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}
