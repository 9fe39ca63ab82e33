/**
 * The time the cron scheduler reads and waits on (cron.ts): the system's, or one a test moves by
 * hand so that a task's runs are counted without waiting for them.
 */
export interface CronClock {
  now(): Date;
  /**
   * Calls `fire` once the time `at` is reached; returns what cancels the call. `fire` resolves
   * when the task it starts has run: a clock a test moves may wait for it before moving on.
   */
  at(at: Date, fire: () => Promise<void>): () => void;
}

/** The longest delay a timer takes (about 24.8 days); a later time is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The system clock: `Date` and timers that do not keep the process alive. */
export const SYSTEM_CLOCK: CronClock = {
  now: () => new Date(),
  at(at, fire) {
    let timer: NodeJS.Timeout | null = null;
    // Never called back from within `at` itself: the caller holds the cancel before `fire` runs.
    const wait = () => {
      const delay = at.getTime() - Date.now();
      if (delay <= 0 && timer !== null) {
        timer = null;
        void fire();
        return;
      }
      timer = setTimeout(wait, Math.min(Math.max(delay, 0), MAX_TIMER_MS));
      timer.unref();
    };
    wait();
    return () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    };
  },
};
