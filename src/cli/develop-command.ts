import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { App } from '../app.js';
import { loadProject, type Project } from '../project/load-project.js';
import { writeGeneratedTypes } from '../typegen/write-generated-types.js';
import type { CliArgs } from './cli-args.js';
import { capturingServerFactory, createHandlerSwitch, type RequestHandler } from './handler-switch.js';
import {
  afterServing,
  createLoggedApp,
  exportEnv,
  onSignals,
  serverLogger,
  servingLine,
  type ServerHooks,
} from './start-command.js';
import { watchProject } from './watch-project.js';

/** How long the watcher waits after a file event for the rest of the save (an editor's save is several events). */
const QUIET_MS = 40;
/** How long the previous app's requests may take to finish after a reload before it closes anyway. */
const DRAIN_GRACE_MS = 30_000;
/** How long a closing server waits for its connections before it cuts them. */
const CLOSE_GRACE_MS = 2000;
/** Fastify's own defaults for the server it would create, kept for the one `develop` creates. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * `develop`: serves like `start`, and reloads the project when a file under `src/` or `config/`,
 * or `.env`, changes, without dropping a request. One HTTP server listens for the whole session;
 * each version of the project is an app of its own (content model, config, the project's code)
 * whose Fastify handler it calls. A reload builds the new app while the previous one serves,
 * then sends new requests to it; the previous app ends its realtime streams (their clients
 * reconnect), finishes the requests it had, and closes (database, workers, cron, timers). A
 * version that does not load is logged, naming the file, and the previous one keeps serving.
 */
export async function developCommand(args: CliArgs, hooks: ServerHooks): Promise<void> {
  const logger = await serverLogger(args);
  const realEnv = { ...process.env };
  const first = await loadProject(args.dir, realEnv);
  exportEnv(first, realEnv);
  // A TypeScript project's types/generated/*.d.ts, as Strapi's develop writes them.
  writeGeneratedTypes(first);
  let current = await buildApp(first, logger);
  const handlers = createHandlerSwitch(current.handler);
  const server = createServer(handlers.listener);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.requestTimeout = 0;
  const { host, port } = first.config.server;
  try {
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen({ host, port }, () => {
        server.off('error', failed);
        listening();
      });
    });
  } catch (error) {
    await current.app.close().catch(() => undefined);
    throw error;
  }
  const address = server.address() as AddressInfo;
  logger.info(
    servingLine(
      first,
      `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    ),
  );
  afterServing(hooks);

  let reloading: Promise<void> | null = null;
  let again = false;
  const reload = async (): Promise<void> => {
    const started = performance.now();
    let next: Built;
    try {
      const project = await loadProject(args.dir, realEnv);
      exportEnv(project, realEnv);
      writeGeneratedTypes(project);
      next = await buildApp(project, logger);
    } catch (error) {
      logger.error(`reload failed, still serving the previous version: ${(error as Error).message}`);
      return;
    }
    const { host: nextHost, port: nextPort } = next.app.project.config.server;
    if (nextHost !== host || nextPort !== port)
      logger.warn(`the server's address changed to ${nextHost}:${nextPort}: it takes effect when develop restarts`);
    const previous = current;
    current = next;
    const drained = handlers.switchTo(next.handler, DRAIN_GRACE_MS);
    logger.info(`reloaded in ${Math.round(performance.now() - started)} ms`);
    // Streams never end by themselves: ended now, their clients reconnect to the new version.
    previous.app.realtime.close();
    await drained;
    await previous.app
      .close()
      .catch((error: unknown) => logger.error({ err: error }, 'the previous version could not close'));
  };
  const onChange = () => {
    // One reload at a time; changes made during one are picked up by one more after it.
    if (reloading) {
      again = true;
      return;
    }
    reloading = reload().finally(() => {
      reloading = null;
      if (again) {
        again = false;
        onChange();
      }
    });
  };
  const stopWatching = watchProject(first.dir, QUIET_MS, onChange);

  onSignals(logger, async () => {
    stopWatching();
    await reloading;
    const closed = new Promise<void>((done) => server.close(() => done()));
    // Idle keep-alive sockets are closed at once; one that never sent a request is cut after a grace period.
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    cut.unref();
    await closed;
    clearTimeout(cut);
    await current.app.close();
  });
}

/** An app serving nowhere by itself, and its Fastify request handler. */
interface Built {
  readonly app: App;
  readonly handler: RequestHandler;
}

async function buildApp(project: Project, logger: Logger): Promise<Built> {
  const capture = capturingServerFactory();
  const app = await createLoggedApp(project, logger, { serverFactory: capture.factory });
  await app.server.ready();
  return { app, handler: capture.handler() };
}
