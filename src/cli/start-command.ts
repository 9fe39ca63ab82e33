import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createApp, type App, type AppOptions } from '../app.js';
import { sqliteFile } from '../db/database-files.js';
import { describeDatabase } from '../config/describe-database.js';
import { warmTranspiler } from '../core/transpile.js';
import { loadProject, type Project } from '../project/load-project.js';
import type { CliArgs } from './cli-args.js';
import { chooseLogFormat, createLogger } from './create-logger.js';
import { startupSummary } from './startup-summary.js';
import { growYoungGenerationWhenBusy, holdYoungGeneration } from './young-generation.js';

/** What `start` and `develop` may be given by bin/cairn.js (which saves the bundle's code cache, load-bundle.ts). */
export interface ServerHooks {
  /**
   * Called once when a server (`start`, `develop`) has started: when it first has load, or a
   * second after it listens when none comes. V8 runs with the flags it started with then.
   */
  readonly afterStart?: () => void;
  /**
   * Whether `afterStart` saves the code cache (this run had none): the server then first compiles
   * what later starts may need that this one did not use (the TypeScript compiler).
   */
  readonly savesCompileCache?: boolean;
}

/**
 * `start`: loads the project, names the database it opens, syncs it, listens on HOST/PORT (or
 * `config/server`), logs one line per request, and closes on SIGINT/SIGTERM.
 */
export async function startCommand(args: CliArgs, hooks: ServerHooks): Promise<void> {
  const logger = await serverLogger(args);
  const project = await loadProject(args.dir, process.env);
  exportEnv(project, { ...process.env });
  const app = await launch(project, logger);
  afterServing(hooks);
  onSignals(logger, () => app.close());
}

/** Holds the young generation, then makes the server's logger (format from the flag, the environment or the terminal). */
export async function serverLogger(args: CliArgs): Promise<Logger> {
  holdYoungGeneration();
  const format = chooseLogFormat(args.logFormat, process.env, process.stdout.isTTY === true);
  return createLogger(format, process.env.LOG_LEVEL ?? 'info', process.stdout.isTTY === true);
}

/** Once serving: lets the young generation grow under load, and calls `afterStart` (saving the code cache). */
export function afterServing(hooks: ServerHooks): void {
  // The code cache about to be saved also gets the TypeScript compiler compiled, when this start
  // did not need it: a TypeScript project's first start then finds it ready.
  const { afterStart } = hooks;
  growYoungGenerationWhenBusy(
    afterStart && hooks.savesCompileCache ? () => void warmTranspiler().then(afterStart, afterStart) : afterStart,
  );
}

/** On SIGINT or SIGTERM: logs it, runs `close`, exits 0. */
export function onSignals(logger: Logger, close: () => Promise<void>): void {
  const shutdown = async (signal: string) => {
    logger.info(`${signal} received, shutting down`);
    await close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

async function launch(project: Project, logger: Logger): Promise<App> {
  const app = await createLoggedApp(project, logger);
  const { host, port } = project.config.server;
  let address: string;
  try {
    address = await app.server.listen({ host, port });
  } catch (error) {
    // A port in use, say: stop what the app started (database, webhook worker, threads) before reporting it.
    await app.close().catch(() => undefined);
    throw error;
  }
  logger.info(servingLine(project, address));
  return app;
}

/** The line saying where the project is served and how long the process took to get there. */
export function servingLine(project: Project, address: string): string {
  return `Cairn is serving ${project.dir} at ${address.replace('0.0.0.0', 'localhost')} (ready ${Math.round(performance.now())} ms after process start)`;
}

/**
 * Builds the project's app, logging what a start tells: the project's warnings, generated
 * secrets, the database, the start-up summary, the project's code and the app's notices.
 */
export async function createLoggedApp(project: Project, logger: Logger, options: AppOptions = {}): Promise<App> {
  for (const warning of project.warnings) logger.warn(warning);
  if (project.generatedSecrets.length > 0)
    logger.info(`generated ${project.generatedSecrets.join(', ')} into ${join(project.dir, '.env')}`);
  const { database } = project.config;
  const file = sqliteFile(database);
  const newFile = file !== null && !existsSync(file);
  logger.info(`database: ${describeDatabase(database)}${newFile ? ' (new file)' : ''}`);
  for (const line of startupSummary(project)) logger.info(line);
  const app = await createApp(project, { logger, ...options });
  for (const line of app.projectCode) logger.info(`project code: ${line}`);
  for (const notice of app.notices) logger.warn(notice);
  return app;
}

/**
 * Makes `.env` values visible to code that reads process.env directly: names the real environment
 * (`realEnv`, as the process started) does not set take the project's values, and a name a
 * previous `.env` set but this one no longer does is removed.
 */
export function exportEnv(project: Project, realEnv: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) {
    if (realEnv[name] === undefined && project.env[name] === undefined) delete process.env[name];
  }
  for (const [name, value] of Object.entries(project.env)) {
    if (value !== undefined && realEnv[name] === undefined) process.env[name] = value;
  }
}
