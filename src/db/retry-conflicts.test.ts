import { describe, expect, it } from 'vitest';
import { retryConflicts, retryWaitMs } from './retry-conflicts.js';

/** A driver error as mysql2 or pg throws it, under the error Cairn translates it into. */
function conflict(code: string): Error {
  return Object.assign(new Error('translated'), { cause: Object.assign(new Error('driver'), { code }) });
}

/** An attempt that fails with `error` the first `failures` times it runs, then answers 'done'. */
function failing(failures: number, error: Error): { attempt: () => Promise<string>; runs: () => number } {
  let runs = 0;
  return {
    attempt: async () => {
      runs += 1;
      if (runs <= failures) throw error;
      return 'done';
    },
    runs: () => runs,
  };
}

describe('retryConflicts', () => {
  it('runs a transaction that met 9 deadlocks in a row a tenth time, and answers its result', async () => {
    const work = failing(9, conflict('ER_LOCK_DEADLOCK'));
    await expect(retryConflicts(work.attempt)).resolves.toBe('done');
    expect(work.runs()).toBe(10);
  });

  it('reports the conflict to the caller after 10 runs in all', async () => {
    const error = conflict('40P01');
    const work = failing(Infinity, error);
    await expect(retryConflicts(work.attempt)).rejects.toBe(error);
    expect(work.runs()).toBe(10);
  });

  it('retries every conflict code it knows, and nothing else', async () => {
    for (const code of ['40P01', '40001', 'ER_LOCK_DEADLOCK', 'ER_AUTOINC_READ_FAILED', '23503', 'ER_DUP_ENTRY']) {
      const work = failing(1, conflict(code));
      await expect(retryConflicts(work.attempt)).resolves.toBe('done');
      expect(work.runs()).toBe(2);
    }
    for (const error of [conflict('ER_PARSE_ERROR'), conflict('23502'), new Error('no code')]) {
      const work = failing(1, error);
      await expect(retryConflicts(work.attempt)).rejects.toBe(error);
      expect(work.runs()).toBe(1);
    }
  });

  it('waits at random up to 5, 10, 20, 40, 80, then 160 ms between runs: the 10th run starts within 795 ms', () => {
    const longest = Array.from({ length: 9 }, (_, index) => retryWaitMs(index + 1, 1));
    expect(longest).toEqual([5, 10, 20, 40, 80, 160, 160, 160, 160]);
    expect(longest.reduce((sum, wait) => sum + wait, 0)).toBe(795);
    expect(retryWaitMs(3, 0.5)).toBe(10);
    expect(retryWaitMs(9, 0)).toBe(0);
  });
});
