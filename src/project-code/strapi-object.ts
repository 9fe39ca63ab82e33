import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { putStoreJson, readStoreJson } from '../db/core-store.js';
import { inOneTransaction } from '../db/nested-transactions.js';
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
 * and its deprecated alias `query(uid)` (of `strapi.db`, only the Query Engine: `connection`,
 * `transaction`… are refused). Every other
 * member throws an error naming it and the project file that used it (unoffered-member.ts).
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
  const storeKey = (params: unknown): string => {
    if (!isRecord(params) || typeof params.key !== 'string')
      throw new ValidationError('strapi.store.get/set takes { type, name, key }');
    const prefix = `${typeof params.type === 'string' ? params.type : 'core'}${typeof params.name === 'string' ? `_${params.name}` : ''}`;
    return `${prefix}_${params.key}`;
  };
  const db = deps.db;
  const members = {
    documents: deps.documents,
    config: deps.projectConfig,
    log: logFacade(deps.logger),
    contentTypes: deps.contentTypes,
    components: deps.components,
    getModel: (uid: string) => deps.contentTypes[uid] ?? deps.components[uid],
    contentType: (uid: string) => deps.contentTypes[uid],
    service: (uid: string) => deps.service(uid),
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
    store: coreStore(db, storeKey),
    cron: deps.cron,
    entityService: strict('strapi.entityService', { ...deps.entityService }),
    db: strict('strapi.db', {
      query: (uid: string) => deps.query(uid),
      transaction: (work: unknown) => projectTransaction(db, work, refuse),
      lifecycles: strict('strapi.db.lifecycles', {
        subscribe: (subscriber: unknown) => deps.lifecycles.subscribe(subscriber),
      }),
    }),
    /** Strapi 5 keeps `strapi.query(uid)` as a deprecated alias of `strapi.db.query(uid)`. */
    query: (uid: string) => deps.query(uid),
    dirs: { ...projectDirs(projectDir), static: { public: deps.config.upload.publicDir } },
  };
  return strict('strapi', members) as Record<string, unknown>;
}

/**
 * `strapi.db.transaction(async ({ trx, onCommit, onRollback }) => …)`: the document service's and
 * the Query Engine's calls inside share one transaction (nested-transactions.ts); `onCommit` and
 * `onRollback` callbacks run after it ends. `trx` is Strapi's knex transaction, which Cairn does
 * not offer: using it throws naming it.
 */
async function projectTransaction(db: Database, work: unknown, refuse: (member: string) => Error): Promise<unknown> {
  if (typeof work !== 'function') throw new ValidationError('strapi.db.transaction() takes an async function');
  const committed: (() => unknown)[] = [];
  const rolledBack: (() => unknown)[] = [];
  const trx = new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key === 'symbol' || key === 'then') return undefined;
        throw refuse(`strapi.db.transaction's trx (a knex transaction): ${key}`);
      },
    },
  );
  let result: unknown;
  try {
    result = await inOneTransaction(db, async () =>
      (work as (args: object) => unknown)({
        trx,
        onCommit: (callback: () => unknown) => void committed.push(callback),
        onRollback: (callback: () => unknown) => void rolledBack.push(callback),
      }),
    );
  } catch (error) {
    for (const callback of rolledBack) await callback();
    throw error;
  }
  for (const callback of committed) await callback();
  return result;
}

/**
 * `strapi.store`: Strapi's core store (`strapi_core_store_settings`), both forms:
 * `strapi.store.get({ type, name, key })` / `.set({ type, name, key, value })`, and
 * `strapi.store({ type, name }).get({ key })` / `.set({ key, value })`. A missing key reads `null`.
 */
function coreStore(db: Database, storeKey: (params: unknown) => string) {
  const get = async (params: unknown) => (await readStoreJson(db, db, storeKey(params))) ?? null;
  const set = (params: unknown) =>
    putStoreJson(db, db, storeKey(params), (params as { value?: unknown }).value ?? null);
  const remove = (params: unknown) => putStoreJson(db, db, storeKey(params), null);
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
