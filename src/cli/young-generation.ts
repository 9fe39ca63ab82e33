import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { compactHeap, nodeStartFlags } from './compact-heap.js';

/*
 * A server keeps V8's young generation at its initial size (two 1 MB semispaces) while it starts
 * and until it is busy. Everything a start-up builds to keep (schema, routes, compiled queries) is
 * first allocated young and survives, which made V8 double the young generation up to its maximum
 * (16 MB of semispaces, ~8 MB resident) for objects that then sat in the old generation: an idle
 * server kept that memory for good. Held for a whole run, the young generation would cost
 * throughput under load (more collections, more objects promoted); held until the load comes, it
 * costs nothing.
 *
 * V8 reads `--semi-space-growth-factor` each time it would grow the young generation (a factor of
 * 1 keeps it as it is). Nothing is changed when Node was given its own young-generation flags
 * (`--max-semi-space-size`…, on the command line or in NODE_OPTIONS).
 */

const GROWTH_FLAG = '--semi-space-growth-factor';
/** V8's own value of the flag (Node 20's V8 and later). */
const DEFAULT_GROWTH = 2;
/** Young-generation collections after which a server counts as busy: each one follows ~1 MB allocated. */
const BUSY_SCAVENGES = 16;
/** How long after listening a server that is not busy compacts its heap (compact-heap.ts). */
const SETTLE_MS = 1000;

let held = false;

/**
 * Stops the young generation from growing. bin/cairn.js calls it for `start` and `develop` before
 * it loads the bundle (loading it is a start-up's first allocation), the start command again
 * (nothing more is done the second time).
 */
export function holdYoungGeneration(): void {
  if (held) return;
  if (nodeStartFlags().some((flag) => /semi[-_]space/.test(flag))) return;
  setFlagsFromString(`${GROWTH_FLAG}=1`);
  held = true;
}

/**
 * Lets the young generation grow again, as V8 grows it by default, once the server has allocated
 * ~16 MB (16 young-generation collections, which a loaded server reaches in well under a second).
 * A server not busy a second after it listens first compacts its heap once (compact-heap.ts).
 * Called once the server listens. `afterStart` is called once, at whichever of the two comes
 * first, while V8 still has the flags it had when the bundle was loaded (bin/cairn.js then saves
 * the bundle's code cache, which V8 accepts only under the same flags: load-bundle.ts).
 */
export function growYoungGenerationWhenBusy(afterStart: () => void = () => undefined): void {
  if (!held) {
    setTimeout(afterStart, SETTLE_MS).unref();
    return;
  }
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    afterStart();
  };
  setTimeout(() => {
    if (!held) return;
    compactHeap();
    once();
  }, SETTLE_MS).unref();
  let scavenges = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
    if (scavenges < BUSY_SCAVENGES || !held) return;
    observer.disconnect();
    once();
    setFlagsFromString(`${GROWTH_FLAG}=${DEFAULT_GROWTH}`);
    held = false;
  });
  observer.observe({ entryTypes: ['gc'] });
}
