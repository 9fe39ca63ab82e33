import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { deleteStoreEntry, readStoreEntry, writeStoreEntry, type StoreScope } from '../db/core-store.js';
import { createKnexConnection, type KnexConnection, type KnexWrites } from '../db/knex-connection.js';
import { RolledBack } from '../db/knex-joined-transaction.js';
import { inOneTransaction, openTransaction } from '../db/nested-transactions.js';
import { ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { Config } from '../config/config.js';
import type { ProjectCron } from './cron.js';
import type { EntityService } from './entity-service.js';
import type { ProjectConfig } from './project-config.js';
import type { ProjectDocuments } from './project-documents.js';
import type { QueryEngineApi } from './query-engine.js';
import { unofferedMember } from './unoffered-member.js';
import type { CustomFieldsRegistry } from './custom-fields-registry.js';
import type { PluginModules } from './plugin-modules.js';
import { join } from 'node:path';

/** What the `strapi` object is built from: Cairn's services, never copies of them. */
export interface StrapiObjectDeps {
  readonly projectDir: string;
  readonly config: Config;
  readonly projectConfig: ProjectConfig;
  readonly logger: Logger;
  readonly db: Database;
  readonly documents: ProjectDocuments;
  /** What a committed write through `strapi.db.connection` (knex) tells Cairn (knex-writes.ts). */
  readonly knexWrites: KnexWrites;
  /** `strapi.db.query(uid)`: the Query Engine (query-engine.ts). */
  readonly query: (uid: string) => QueryEngineApi;
  /** Strapi-shaped schemas (`strapi.contentTypes`, `strapi.components`), by uid. */
  readonly contentTypes: Readonly<Record<string, unknown>>;
  readonly components: Readonly<Record<string, unknown>>;
  /** `strapi.service(uid)` / `strapi.controller(uid)`: the project's, or the core ones. */
  service(uid: string): object | undefined;
  controller(uid: string): object | undefined;
  /** `strapi.entityService`. */
  readonly entityService: EntityService;
  /** `strapi.cron`. */
  readonly cron: ProjectCron;
  /** Told after `strapi.store` set or deleted the entry of `key` (Cairn reads again what it holds of it). */
  readonly storeWritten?: (key: string) => Promise<void>;
  /** `strapi.db.lifecycles`. */
  readonly lifecycles: { subscribe(subscriber: unknown): void };
  /** `strapi.plugin(name)` and `strapi.plugins` (plugin-modules.ts). */
  readonly pluginModules: PluginModules;
  /** `strapi.customFields`. */
  readonly customFields: CustomFieldsRegistry;
  /** `strapi.contentAPI.sanitize` (content-api-sanitize.ts). */
  readonly sanitize: { output(data: unknown, model: unknown, options?: unknown): Promise<unknown> };
  /** Plugin packages' folders: a refused member used there names its file too. */
  readonly packageRoots: readonly string[];
  /** `strapi.admin.services.permission.conditionProvider` (condition-provider.ts). */
  readonly conditionProvider: Readonly<Record<string, unknown>>;
}

/** The members of the `strapi` object (createStrapiObject): what code that ran too early may use later. */
export const STRAPI_MEMBERS: ReadonlySet<string> = new Set([
  'documents',
  'config',
  'log',
  'contentTypes',
  'components',
  'getModel',
  'contentType',
  'service',
  'controller',
  'plugin',
  'plugins',
  'customFields',
  'contentAPI',
  'store',
  'cron',
  'entityService',
  'db',
  'query',
  'dirs',
]);

/** Members read as absent rather than refused: what promise, inspection and interop code probe. */
const PROBED = new Set(['then', 'toJSON', 'constructor', 'inspect', 'asymmetricMatch', '$$typeof', '__esModule']);

/**
 * The `strapi` object project code receives (`register({ strapi })`, factories, policies,
 * middlewares) and finds as a global: `documents`, `config`, `log`, `contentTypes`, `components`,
 * `getModel`, `contentType`, `service`, `controller`, `plugin(name)`, `plugins`, `customFields`,
 * `contentAPI.sanitize.output`, `store`, `dirs`, `db.query(uid)`
 * and its deprecated alias `query(uid)`, `db.transaction`, `db.connection` (knex, loaded when
 * first used), and `admin.services.permission.conditionProvider` (also
 * `service('admin::permission')`). Every other member throws an error naming it and the project
 * file that used it (unoffered-member.ts).
 */
export function createStrapiObject(deps: StrapiObjectDeps): Record<string, unknown> {
  const { projectDir } = deps;
  const refuse = (member: string) => unofferedMember(member, projectDir, deps.packageRoots);
  const strict = <T extends object>(name: string, members: T): T =>
    new Proxy(members, {
      get(target, key) {
        if (typeof key === 'symbol' || key in target || PROBED.has(key)) return Reflect.get(target, key);
        throw refuse(`${name}.${key}`);
      },
    });
  const db = deps.db;
  let knex: KnexConnection | undefined;
  const knexConnection = () => (knex ??= createKnexConnection(db, deps.knexWrites));
  // Strapi's admin permission service, as `strapi.admin.services.permission` and `strapi.service('admin::permission')`.
  const permission = strict('strapi.admin.services.permission', {
    conditionProvider: strict('strapi.admin.services.permission.conditionProvider', { ...deps.conditionProvider }),
  });
  const members = {
    documents: deps.documents,
    config: deps.projectConfig,
    log: logFacade(deps.logger),
    contentTypes: deps.contentTypes,
    components: deps.components,
    getModel: (uid: string) => deps.contentTypes[uid] ?? deps.components[uid],
    contentType: (uid: string) => deps.contentTypes[uid],
    service: (uid: string) => (uid === 'admin::permission' ? permission : deps.service(uid)),
    controller: (uid: string) => deps.controller(uid),
    plugin: (name: string) => {
      const found = deps.pluginModules.plugin(name);
      return found ? strict(`strapi.plugin('${name}')`, found) : found;
    },
    plugins: deps.pluginModules.plugins,
    customFields: strict('strapi.customFields', {
      register: (fields: unknown) => deps.customFields.register(fields),
      getAll: () => deps.customFields.getAll(),
      get: (uid: string) => deps.customFields.get(uid),
    }),
    contentAPI: strict('strapi.contentAPI', { sanitize: strict('strapi.contentAPI.sanitize', deps.sanitize) }),
    store: coreStore(db, deps.storeWritten),
    cron: deps.cron,
    entityService: strict('strapi.entityService', { ...deps.entityService }),
    db: strict('strapi.db', {
      query: (uid: string) => deps.query(uid),
      transaction: (work: unknown) => projectTransaction(db, work, knexConnection),
      /** Strapi's knex instance, on Cairn's connections (db/knex-connection.ts). */
      get connection() {
        return knexConnection().knex;
      },
      lifecycles: strict('strapi.db.lifecycles', {
        subscribe: (subscriber: unknown) => deps.lifecycles.subscribe(subscriber),
      }),
    }),
    admin: strict('strapi.admin', { services: strict('strapi.admin.services', { permission }) }),
    /** Strapi 5 keeps `strapi.query(uid)` as a deprecated alias of `strapi.db.query(uid)`. */
    query: (uid: string) => deps.query(uid),
    dirs: { ...projectDirs(projectDir), static: { public: deps.config.upload.publicDir } },
  };
  return strict('strapi', members) as Record<string, unknown>;
}

/**
 * `strapi.db.transaction(async ({ trx, commit, rollback, onCommit, onRollback }) => …)`: the
 * document service's, the Query Engine's and knex's calls inside share one transaction
 * (nested-transactions.ts); `trx` is a knex transaction joined to it (knex-connection.ts), the
 * same one for the calls nested inside. It commits when the callback returns and rolls back when
 * it throws; `rollback()` (or `trx.rollback()`) rolls it back and answers what the callback
 * returns, as Strapi does. `onCommit` and `onRollback` callbacks run after it ends (not after a
 * `trx.rollback()`, as in Strapi). Nested in another transaction, `commit()` and `rollback()` do
 * nothing (its owner ends it), as in Strapi.
 */
async function projectTransaction(db: Database, work: unknown, knex: () => KnexConnection): Promise<unknown> {
  if (typeof work !== 'function') throw new ValidationError('strapi.db.transaction() takes an async function');
  const committed: (() => unknown)[] = [];
  const rolledBack: (() => unknown)[] = [];
  let rollbackCalled = false;
  // Inside another transaction, `commit()` and `rollback()` leave it to its owner, as in Strapi.
  const outermost = openTransaction(db) === undefined;
  let result: unknown;
  try {
    result = await inOneTransaction(db, () => {
      const tx = openTransaction(db);
      if (!tx) throw new Error('strapi.db.transaction: no transaction open');
      return knex().joined(tx, async (trx) =>
        (work as (args: object) => unknown)({
          trx,
          commit: async () => {
            if (outermost) await trx.commit();
          },
          rollback: async () => {
            if (!outermost) return;
            rollbackCalled = true;
            await trx.rollback();
          },
          onCommit: (callback: () => unknown) => void committed.push(callback),
          onRollback: (callback: () => unknown) => void rolledBack.push(callback),
        }),
      );
    });
  } catch (error) {
    if (error instanceof RolledBack && !rollbackCalled) return error.value;
    for (const callback of rolledBack) await callback();
    if (error instanceof RolledBack) return error.value;
    throw error;
  }
  for (const callback of committed) await callback();
  return result;
}

/**
 * `strapi.store`: Strapi's core store (`strapi_core_store_settings`), both forms:
 * `strapi.store.get({ type, name, key, environment, tag })` / `.set({ …, value })` / `.delete({ … })`,
 * and `strapi.store({ type, name, environment, tag }).get({ key })` / `.set` / `.delete`. The entry
 * is Strapi's: key `<type>_<name>_<key>` (`<type>_<key>` without a name) with its environment and
 * tag (null when not given), so Strapi on the same database reads what project code wrote and the
 * other way round; `set` and `delete` answer the entry's row. As in Strapi, `get` defaults the type to `core` and `set`/`delete` do not (a
 * key set without a type is `undefined_<key>`); a missing entry reads `null`. `written` is told
 * each key set or deleted (Cairn reads again the settings it holds).
 */
function coreStore(db: Database, written: ((key: string) => Promise<void>) | undefined) {
  const entry = (params: unknown, verb: string, defaultType?: string): { key: string; scope: StoreScope } => {
    if (!isRecord(params) || typeof params.key !== 'string' || params.key === '')
      throw new ValidationError(`strapi.store.${verb}() takes { key, type?, name?, environment?, tag? } with a key`);
    const { type = defaultType, name, environment, tag } = params;
    const text = (value: unknown) => (value === undefined || value === null || value === '' ? null : String(value));
    const prefix = `${String(type)}${text(name) === null ? '' : `_${String(name)}`}`;
    return { key: `${prefix}_${params.key}`, scope: { environment: text(environment), tag: text(tag) } };
  };
  const get = async (params: unknown) => {
    const { key, scope } = entry(params, 'get', 'core');
    return readStoreEntry(db, db, key, scope);
  };
  const set = async (params: unknown) => {
    const { key, scope } = entry(params, 'set');
    const row = await writeStoreEntry(db, db, key, scope, (params as { value?: unknown }).value);
    await written?.(key);
    return row;
  };
  const remove = async (params: unknown) => {
    const { key, scope } = entry(params, 'delete');
    const row = await deleteStoreEntry(db, db, key, scope);
    if (row) await written?.(key);
    return row;
  };
  const bound = (base: unknown) => {
    const merged = (params: unknown) => ({ ...(isRecord(base) ? base : {}), ...(isRecord(params) ? params : {}) });
    return {
      get: (params?: unknown) => get(merged(params)),
      set: (params?: unknown) => set(merged(params)),
      delete: (params?: unknown) => remove(merged(params)),
    };
  };
  return Object.assign(bound, { get, set, delete: remove });
}

/** `strapi.log`: Strapi's logger methods over Cairn's. */
function logFacade(logger: Logger): Record<string, (...args: unknown[]) => void> {
  const line =
    (level: 'info' | 'warn' | 'error' | 'debug' | 'trace' | 'fatal') =>
    (...args: unknown[]) => {
      const [first, ...rest] = args;
      if (first instanceof Error) logger[level]({ err: first }, rest.map(String).join(' ') || first.message);
      else logger[level](args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
    };
  return {
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    debug: line('debug'),
    trace: line('trace'),
    fatal: line('fatal'),
    http: line('info'),
    verbose: line('debug'),
  };
}

/** `strapi.dirs` as Strapi 5 gives it for a project run from its sources. */
export function projectDirs(dir: string): Record<string, unknown> {
  return {
    app: {
      root: dir,
      src: join(dir, 'src'),
      api: join(dir, 'src', 'api'),
      components: join(dir, 'src', 'components'),
      extensions: join(dir, 'src', 'extensions'),
      policies: join(dir, 'src', 'policies'),
      middlewares: join(dir, 'src', 'middlewares'),
      config: join(dir, 'config'),
    },
  };
}
