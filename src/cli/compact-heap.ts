import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The flags Node was started with: its command line's and NODE_OPTIONS'. */
export function nodeStartFlags(): string[] {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
}

/** Whether Node was started with a V8 flag (`--name` or `--name=…`, dashes or underscores). */
function nodeHasFlag(name: string): boolean {
  const pattern = new RegExp(`^--${name.replace(/[-_]/g, '[-_]')}(=|$)`);
  return nodeStartFlags().some((flag) => pattern.test(flag));
}

/**
 * Runs one full garbage collection that compacts the old generation, so that V8 gives the pages
 * it empties back to the system. A server calls it once, idle after its start (young-generation.ts):
 * a full collection then frees ~2.5 MB of what the start-up left (promoted young while the young
 * generation was held small), and only compaction turns that into memory returned; V8 would
 * otherwise keep those pages for good on a server with little to do (~27 ms for a server of
 * examples/blog, `--trace-gc` on a busy 2-core VM).
 *
 * Node has no API for it: V8's `gc` function is exposed to a new context for this call only
 * (`--expose-gc`), and `--compact-on-every-full-gc` is on for this collection only; a flag
 * Node was started with is left as it was.
 */
export function compactHeap(): void {
  const exposed = nodeHasFlag('expose-gc');
  if (!exposed) setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  if (!exposed) setFlagsFromString('--no-expose-gc');
  const compacting = nodeHasFlag('compact-on-every-full-gc');
  if (!compacting) setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    if (!compacting) setFlagsFromString('--no-compact-on-every-full-gc');
  }
}
