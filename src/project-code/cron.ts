import { Cron } from 'croner';
import type { Logger } from 'pino';
import { ProjectError, ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { SYSTEM_CLOCK, type CronClock } from './cron-clock.js';

/** One scheduled task as `strapi.cron.jobs` lists it. */
export interface CronJob {
  readonly name: string;
  readonly options: { readonly rule: string; readonly tz?: string; readonly start?: unknown; readonly end?: unknown };
  /** The rule as croner reads it (`job.nextRun()`); it schedules nothing itself. */
  readonly job: Cron;
}

/** `strapi.cron`: the project's scheduled tasks. */
export interface ProjectCron {
  add(tasks: unknown): void;
  remove(name: string): void;
  readonly jobs: readonly CronJob[];
  /** Starts the tasks (after `bootstrap`, as Strapi does); tasks added later start at once. */
  start(): void;
  /** Stops every task (the server is stopping). */
  stop(): void;
}

/** A job, what runs it, and the call of its next run while it is scheduled. */
interface Scheduled extends CronJob {
  readonly run: (fireDate: Date) => Promise<void>;
  cancel: (() => void) | null;
}

/**
 * Strapi's cron: `config/server` `cron: { enabled, tasks }` (tasks usually imported from
 * `config/cron-tasks`) and `strapi.cron.add/remove/jobs`, in both of Strapi's forms,
 * `{ name: { task, options: { rule, tz, start, end } } }` (or `options: '<rule>'`) and
 * `{ '<rule>': task }`. Rules have 5 or 6 fields (the first of six is the second); croner reads
 * them with the timezone, start and end, and `clock` (the system's unless a test moves its own,
 * cron-clock.ts) calls each run at its time. A task runs `task({ strapi }, fireDate)` only on the
 * instance that leads (`leads`: with several instances on one database, one runs them), never
 * twice at once (a run still going when the next one is due skips it); what it throws is logged.
 * Tasks are added only when `enabled`; `strapi.cron.add` adds them whatever it says, as in Strapi.
 */
export function createProjectCron(options: {
  readonly config: unknown;
  readonly strapi: () => unknown;
  readonly leads: () => boolean;
  readonly logger: Logger;
  readonly clock?: CronClock;
}): ProjectCron {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const jobs: Scheduled[] = [];
  let started = false;
  /**
   * Calls the job's next run after `from`, which calls the one after it (after the later of its
   * own time and now: runs a late call missed are skipped, not made up in a burst).
   */
  const schedule = (job: Scheduled, from: Date) => {
    const next = job.job.nextRun(from);
    job.cancel =
      next === null
        ? null
        : clock.at(next, async () => {
            const now = clock.now();
            schedule(job, now > next ? now : next);
            await job.run(next);
          });
  };
  const add = (tasks: unknown, where: string) => {
    if (!isRecord(tasks)) throw new ValidationError(`${where}: cron tasks must be an object`);
    for (const [key, entry] of Object.entries(tasks)) {
      const { task, rule, tz, start, end, name } = readTask(key, entry, where);
      let running = false;
      const run = async (fireDate: Date) => {
        if (running || !options.leads()) return;
        running = true;
        try {
          await task({ strapi: options.strapi() }, fireDate);
        } catch (error) {
          options.logger.error({ err: error }, `the cron task ${name} failed`);
        } finally {
          running = false;
        }
      };
      let pattern: Cron;
      try {
        pattern = new Cron(rule, {
          ...(tz !== undefined && { timezone: tz }),
          ...(start !== undefined && { startAt: start as Date | string }),
          ...(end !== undefined && { stopAt: end as Date | string }),
        });
      } catch (error) {
        throw new ValidationError(
          `${where}: the cron task ${name} has an invalid rule ${rule}: ${(error as Error).message}`,
        );
      }
      const job: Scheduled = {
        name,
        options: { rule, ...(tz !== undefined && { tz }), start, end },
        job: pattern,
        run,
        cancel: null,
      };
      jobs.push(job);
      if (started) schedule(job, clock.now());
    }
  };
  const unschedule = (job: Scheduled) => {
    job.cancel?.();
    job.cancel = null;
    job.job.stop();
  };
  const config = isRecord(options.config) ? options.config : {};
  if (config.enabled === true && config.tasks !== undefined) {
    try {
      add(config.tasks, 'config/server cron.tasks');
    } catch (error) {
      throw new ProjectError((error as Error).message);
    }
  }
  return {
    add: (tasks) => add(tasks, 'strapi.cron.add'),
    remove(name) {
      for (let index = jobs.length - 1; index >= 0; index--) {
        const job = jobs[index] as Scheduled;
        if (job.name !== name) continue;
        unschedule(job);
        jobs.splice(index, 1);
      }
    },
    get jobs() {
      return jobs.map(({ name, options: jobOptions, job }) => ({ name, options: jobOptions, job }));
    },
    start() {
      if (started) return;
      started = true;
      const now = clock.now();
      for (const job of jobs) schedule(job, now);
    },
    stop() {
      for (const job of jobs.splice(0)) unschedule(job);
    },
  };
}

type TaskFunction = (args: { strapi: unknown }, fireDate: Date) => unknown;

function readTask(
  key: string,
  entry: unknown,
  where: string,
): { task: TaskFunction; rule: string; tz?: string; start?: unknown; end?: unknown; name: string } {
  if (typeof entry === 'function') return { task: entry as TaskFunction, rule: key, name: key };
  if (!isRecord(entry) || typeof entry.task !== 'function')
    throw new ValidationError(`${where}: ${key} must be a function or { task, options }`);
  const opts = entry.options;
  if (typeof opts === 'string') return { task: entry.task as TaskFunction, rule: opts, name: key };
  if (isRecord(opts) && typeof opts.rule === 'string') {
    return {
      task: entry.task as TaskFunction,
      rule: opts.rule,
      name: key,
      ...(typeof opts.tz === 'string' && { tz: opts.tz }),
      ...(opts.start !== undefined && { start: opts.start }),
      ...(opts.end !== undefined && { end: opts.end }),
    };
  }
  // `{ '<rule>': { task, options: { tz } } }`: the key is the rule.
  return {
    task: entry.task as TaskFunction,
    rule: key,
    name: key,
    ...(isRecord(opts) && typeof opts.tz === 'string' && { tz: opts.tz }),
  };
}
