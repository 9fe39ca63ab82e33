import { readFileSync } from 'node:fs';

/** CPU time in clock ticks (1/100 s on Linux) spent by the calling thread and by the rest of the process. */
export interface ThreadCpu {
  /** The thread that called `cpuDuring`: in a test, the event loop the in-process server runs on. */
  readonly loopThread: number;
  /** Every other thread of the process: libuv's thread pool, V8's helpers. */
  readonly otherThreads: number;
}

/** Whether this platform exposes per-thread CPU times (Linux `/proc`). */
export function canMeasureThreadCpu(): boolean {
  try {
    readFileSync('/proc/thread-self/stat');
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `work` and reports where its CPU time went: on the calling (event-loop) thread or on the
 * process's other threads. CPU time, not elapsed time: the figures do not depend on how busy the
 * machine is. Reads `/proc/thread-self/stat` (read synchronously, so on the calling thread) and
 * `/proc/self/stat`.
 */
export async function cpuDuring(work: () => Promise<void>): Promise<ThreadCpu> {
  const loopBefore = ticks('/proc/thread-self/stat');
  const processBefore = ticks('/proc/self/stat');
  await work();
  const loopThread = ticks('/proc/thread-self/stat') - loopBefore;
  const processTotal = ticks('/proc/self/stat') - processBefore;
  return { loopThread, otherThreads: processTotal - loopThread };
}

/** utime + stime of a `/proc/…/stat` line (fields 14 and 15, counted after the parenthesised name). */
function ticks(file: string): number {
  const line = readFileSync(file, 'utf8');
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
