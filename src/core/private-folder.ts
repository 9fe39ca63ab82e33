import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Creates `folder` for this user alone when missing, and says whether it is safe to keep code this
 * process will run in it: refused when it is a link or a file, or a folder another user owns or can
 * write to (whoever can write there could make Cairn run their code).
 */
export function usablePrivateFolder(folder: string, uid: number | undefined = process.getuid?.()): boolean {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = lstatSync(folder);
    if (!stat.isDirectory()) return false;
    if (uid === undefined) return true;
    return stat.uid === uid && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * Where Cairn keeps what it compiled for the next run (`kind`: the V8 code cache, a project's
 * transpiled files): under `CAIRN_COMPILE_CACHE` when set (a folder), else a folder of this user's
 * in the system's temporary folder; null when `CAIRN_COMPILE_CACHE` is `off` (or false, 0, no).
 */
export function compileCacheFolder(env: NodeJS.ProcessEnv, kind: 'v8' | 'transpiled'): string | null {
  const setting = env.CAIRN_COMPILE_CACHE?.trim();
  if (setting !== undefined && /^(off|false|0|no)$/i.test(setting)) return null;
  const base = setting ? setting : join(tmpdir(), `cairn-compile-cache-${process.getuid?.() ?? 'user'}`);
  return kind === 'v8' ? base : join(base, kind);
}
