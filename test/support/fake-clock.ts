import type { CronClock } from '../../src/project-code/cron-clock.js';

/** A clock the test moves by hand: cron tasks run when it passes their time, never otherwise. */
export interface FakeClock extends CronClock {
  /**
   * Moves the time `ms` forward: each call that falls due on the way is made at its own time, in
   * time order, and waited for (its task has run) before the clock moves on; calls it schedules
   * on the way are made too when they fall before the end.
   */
  advance(ms: number): Promise<void>;
  /** Calls waiting to be made (scheduled runs of tasks, every server sharing the clock). */
  pending(): number;
}

interface Call {
  readonly at: number;
  readonly order: number;
  readonly fire: () => Promise<void>;
}

/** A fake clock reading `start` until it is advanced; several servers may share it. */
export function createFakeClock(start: Date): FakeClock {
  let now = start.getTime();
  let order = 0;
  const calls = new Set<Call>();
  return {
    now: () => new Date(now),
    at(at, fire) {
      const call: Call = { at: at.getTime(), order: order++, fire };
      calls.add(call);
      return () => void calls.delete(call);
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        let due: Call | null = null;
        for (const call of calls)
          if (call.at <= end && (!due || call.at < due.at || (call.at === due.at && call.order < due.order)))
            due = call;
        if (!due) break;
        calls.delete(due);
        now = Math.max(now, due.at);
        await due.fire();
      }
      now = end;
    },
    pending: () => calls.size,
  };
}
