import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** The files whose change reloads the project: code, JSON (schemas, components, config) and `.env`. */
const WATCHED = /\.(json|js|cjs|mjs|ts|cts|mts)$/;
/** An editor's own files: swap files, backups, the temporary file a save writes before renaming it. */
const EDITOR_FILE = /(^|[\\/])(\.#|#)|~$|\.(swp|swx|swo|tmp|bak|orig)$|\.d\.[cm]?ts$/;

/** Stops watching. */
export type StopWatching = () => void;

/**
 * Watches a project for `cairn develop`: `src/` and `config/` (recursively) and `.env`. Events
 * arriving within `quietMs` of each other are one change (an editor's save is several: a temporary
 * file written, renamed over the original, its mode set), reported once through `onChange` after
 * the last of them. Editor swap and backup files, and TypeScript declaration files, are ignored.
 */
export function watchProject(dir: string, quietMs: number, onChange: () => void): StopWatching {
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, quietMs);
  };
  const watchers: FSWatcher[] = [];
  for (const folder of ['src', 'config']) {
    const path = join(dir, folder);
    if (!existsSync(path)) continue;
    watchers.push(
      watch(path, { recursive: true }, (_event, file) => {
        if (file && WATCHED.test(file) && !EDITOR_FILE.test(file)) changed();
      }),
    );
  }
  // `.env` is replaced, not only written, by most editors: its folder is watched, not the file.
  watchers.push(
    watch(dir, (_event, file) => {
      if (file === '.env') changed();
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
