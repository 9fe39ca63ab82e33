import { readFileSync } from 'node:fs';

/** The resident memory (bytes) of process `pid`, from `/proc/<pid>/status` (Linux). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** Samples `pid`'s resident memory every `everyMs` until `stop()`, which answers the highest seen. */
export function watchPeak(pid: number, everyMs = 20): { stop(): number } {
  let peak = residentBytes(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, residentBytes(pid));
    } catch {
      clearInterval(timer); // the process exited
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, residentBytes(pid));
    },
  };
}
