import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { knownActions } from './access/actions.js';
import { createAccessControl } from './access/principal.js';
import { contentApiRoutes } from './api/content-api.js';
import { healthRoute } from './api/health.js';
import type { Database, QueryListener } from './db/database.js';
import { openDatabase } from './db/open-database.js';
import { syncSchema } from './db/sync-schema.js';
import { createDocumentContext } from './documents/context.js';
import { createHttpServer } from './http/create-server.js';
import type { Route } from './http/http-types.js';
import type { Project } from './project/load-project.js';
import { planTables } from './schema/tables.js';
import { loadRolePermissions, syncRolePermissions, type RolePermissions } from './users-permissions/role-permissions.js';

export interface AppOptions {
  readonly logger?: Logger;
  /** The clock (tests pin it). */
  readonly now?: () => Date;
  /** Sees every SQL statement executed (tests count them). */
  readonly onQuery?: QueryListener;
}

/** A composed, ready-to-listen Cairn server for one project. */
export interface App {
  readonly project: Project;
  readonly db: Database;
  readonly server: FastifyInstance;
  readonly routes: readonly Route[];
  /** Start-up findings worth logging: schema differences kept, unknown permission actions. */
  readonly notices: readonly string[];
  close(): Promise<void>;
}

/**
 * The composition root: opens the database, syncs the schema and the role permissions, compiles
 * the per-type services, and builds the HTTP server. Nothing else in Cairn reads configuration
 * or holds module-level state; everything below receives what it needs from here.
 */
export async function createApp(project: Project, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const now = options.now ?? (() => new Date());
  const db = await openDatabase(project.config.database, options.onQuery);
  try {
    const sync = await syncSchema(db, planTables(project.schema));
    const permissionWarnings = await syncRolePermissions(db, project.config.permissions, knownActions(project.schema), now());
    const roles: RolePermissions = await loadRolePermissions(db);
    const access = createAccessControl({
      db,
      salt: project.config.admin.apiTokenSalt,
      roles: () => roles,
      now,
      onError: (error) => logger.warn({ err: error }, 'could not record API token use'),
    });
    const documents = createDocumentContext(project.schema, db, now);
    const routes: Route[] = [healthRoute, ...contentApiRoutes({ config: project.config, documents, access })];
    const server = await createHttpServer(routes, { bodyLimit: project.config.bodyLimit, cors: project.config.cors, logger });
    return {
      project,
      db,
      server,
      routes,
      notices: [...sync.notices, ...permissionWarnings],
      async close() {
        await server.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
