import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createApp, type App } from '../app.js';
import { sqliteFile } from '../db/database-files.js';
import { describeDatabase } from '../config/describe-database.js';
import { warmTranspiler } from '../core/transpile.js';
import { loadProject, type Project } from '../project/load-project.js';
import { writeGeneratedTypes } from '../typegen/write-generated-types.js';
import type { CliArgs } from './cli-args.js';
import { chooseLogFormat, createLogger } from './create-logger.js';
import { startupSummary } from './startup-summary.js';
import { growYoungGenerationWhenBusy, holdYoungGeneration } from './young-generation.js';

/**
 * `start` / `develop`: loads the project, names the database it opens, syncs it, listens on
 * HOST/PORT (or `config/server`), logs one line per request. `develop` also restarts when a file under
 * `src/` or `config/` changes; a reload that fails keeps the running server. In a TypeScript
 * project `develop` writes `types/generated/*.d.ts` at start and after each change, as Strapi's does.
 */
export async function startCommand(
  args: CliArgs,
  options: { develop: boolean; afterStart?: () => void; savesCompileCache?: boolean },
): Promise<void> {
  holdYoungGeneration();
  const format = chooseLogFormat(args.logFormat, process.env, process.stdout.isTTY === true);
  const logger = await createLogger(format, process.env.LOG_LEVEL ?? 'info', process.stdout.isTTY === true);
  let project = await loadProject(args.dir, process.env);
  exportEnv(project);
  if (options.develop) writeGeneratedTypes(project);
  let app = await launch(project, logger);
  // The code cache about to be saved also gets the TypeScript compiler compiled, when this start
  // did not need it: a TypeScript project's first start then finds it ready.
  const { afterStart } = options;
  growYoungGenerationWhenBusy(
    afterStart && options.savesCompileCache ? () => void warmTranspiler().then(afterStart, afterStart) : afterStart,
  );

  let watchers: FSWatcher[] = [];
  if (options.develop) {
    let timer: NodeJS.Timeout | undefined;
    const reload = async () => {
      try {
        const next = await loadProject(args.dir, process.env);
        writeGeneratedTypes(next);
        await app.close();
        project = next;
        app = await launch(project, logger);
      } catch (error) {
        logger.error(`reload failed, still serving the previous version: ${(error as Error).message}`);
      }
    };
    watchers = ['src', 'config'].map((folder) =>
      watch(join(project.dir, folder), { recursive: true }, (_event, file) => {
        if (file && /\.(json|js|cjs|mjs|ts)$/.test(file)) {
          clearTimeout(timer);
          timer = setTimeout(() => void reload(), 200);
        }
      }),
    );
  }

  const shutdown = async (signal: string) => {
    logger.info(`${signal} received, shutting down`);
    for (const watcher of watchers) watcher.close();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

async function launch(project: Project, logger: Logger): Promise<App> {
  for (const warning of project.warnings) logger.warn(warning);
  if (project.generatedSecrets.length > 0)
    logger.info(`generated ${project.generatedSecrets.join(', ')} into ${join(project.dir, '.env')}`);
  const { database } = project.config;
  const file = sqliteFile(database);
  const newFile = file !== null && !existsSync(file);
  logger.info(`database: ${describeDatabase(database)}${newFile ? ' (new file)' : ''}`);
  for (const line of startupSummary(project)) logger.info(line);
  const app = await createApp(project, { logger });
  for (const line of app.projectCode) logger.info(`project code: ${line}`);
  for (const notice of app.notices) logger.warn(notice);
  const { host, port } = project.config.server;
  let address: string;
  try {
    address = await app.server.listen({ host, port });
  } catch (error) {
    // A port in use, say: stop what the app started (database, webhook worker, threads) before reporting it.
    await app.close().catch(() => undefined);
    throw error;
  }
  logger.info(
    `Cairn is serving ${project.dir} at ${address.replace('0.0.0.0', 'localhost')} (ready ${Math.round(performance.now())} ms after process start)`,
  );
  return app;
}

/** Makes `.env` values visible to code that reads process.env directly (the real environment wins). */
function exportEnv(project: Project): void {
  for (const [name, value] of Object.entries(project.env)) {
    if (value !== undefined && process.env[name] === undefined) process.env[name] = value;
  }
}
