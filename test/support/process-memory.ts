import { readFileSync, writeFileSync } from 'node:fs';

/**
 * A child process's resident memory as Linux reports it in /proc/<pid>/status: `rss` now and
 * `peak` (VmHWM, the highest since the peak was last reset), in bytes.
 */
export function residentMemory(pid: number): { readonly rss: number; readonly peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kilobytes('VmRSS') * 1024, peak: kilobytes('VmHWM') * 1024 };
}

/** Sets the process's peak resident memory back to its current one (`5` to /proc/<pid>/clear_refs). */
export function resetPeakMemory(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/**
 * How far `work` raises the child's resident memory above where it stood before: its peak during
 * the work (VmHWM, reset first) minus its resident memory just before, in bytes.
 */
export async function peakGrowth(pid: number, work: () => Promise<void>): Promise<number> {
  resetPeakMemory(pid);
  const before = residentMemory(pid).rss;
  await work();
  return residentMemory(pid).peak - before;
}

/** `bytes` as megabytes with one decimal, for assertion messages. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}
