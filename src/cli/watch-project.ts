import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** The files whose change reloads the project: code, JSON (schemas, components, config) and `.env`. */
const WATCHED = /\.(json|js|cjs|mjs|ts|cts|mts)$/;
/** An editor's own files: swap files, backups, the temporary file a save writes before renaming it. */
const EDITOR_FILE = /(^|[\\/])(\.#|#)|~$|\.(swp|swx|swo|tmp|bak|orig)$|\.d\.[cm]?ts$/;

/** Stops watching. */
export type StopWatching = () => void;

/**
 * Watches a project for `cairn develop`: `src/` and `config/` (their folders, new ones included)
 * and `.env`. Events arriving within `quietMs` of each other are one change (an editor's save is
 * several: a temporary file written, renamed over the original, its mode set), reported once
 * through `onChange` after the last of them. Editor swap and backup files, and TypeScript
 * declaration files, are ignored. Each folder is watched, not each file (Node 20's recursive
 * watch on Linux follows files, and loses one an editor's save replaced by a rename).
 */
export function watchProject(dir: string, quietMs: number, onChange: () => void): StopWatching {
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, quietMs);
  };
  const watchers = new Map<string, FSWatcher>();
  const watchFolder = (folder: string, relevant: (file: string) => boolean) => {
    if (watchers.has(folder) || !isFolder(folder)) return;
    const watcher = watch(folder, (_event, file) => {
      if (!file) return;
      const path = join(folder, file);
      // A folder created (a new API, say): watched from now on, its files a change.
      if (relevant !== isEnvFile && isFolder(path)) {
        watchFolder(path, relevant);
        changed();
      } else if (relevant(file)) changed();
    });
    // A folder removed: its watcher ends with it.
    watcher.on('error', () => forget(folder));
    watchers.set(folder, watcher);
    if (relevant === isEnvFile) return;
    for (const entry of readdirSync(folder, { withFileTypes: true }))
      if (entry.isDirectory()) watchFolder(join(folder, entry.name), relevant);
  };
  const forget = (folder: string) => {
    watchers.get(folder)?.close();
    watchers.delete(folder);
  };
  for (const folder of ['src', 'config']) watchFolder(join(dir, folder), isSourceFile);
  // `.env` is replaced, not only written, by most editors: its folder is watched, not the file.
  watchFolder(dir, isEnvFile);
  return () => {
    clearTimeout(timer);
    for (const folder of [...watchers.keys()]) forget(folder);
  };
}

function isSourceFile(file: string): boolean {
  return WATCHED.test(file) && !EDITOR_FILE.test(file);
}

function isEnvFile(file: string): boolean {
  return file === '.env';
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
