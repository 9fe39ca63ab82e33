import { isAbsolute, resolve } from 'node:path';
import { ProjectError } from '../core/errors.js';
import type { ApiConfig, Config, CorsConfig, DatabaseClient, DatabaseConfig } from './config.js';
import { normalizeAdminConfig } from './admin-config.js';
import { normalizeClusterConfig } from './cluster-config.js';
import { normalizeCustomFields } from './custom-fields-config.js';
import { normalizeAnswerLimits } from './answer-limits-config.js';
import { normalizeDeepPopulate } from './deep-populate-config.js';
import { normalizeDefaultQueries } from './default-queries-config.js';
import { normalizeHttpCache } from './http-cache-config.js';
import { normalizeRealtime } from './realtime-config.js';
import type { RawConfig } from './load-config-files.js';
import { normalizeMiddlewares } from './middlewares-config.js';
import { parseByteSize } from './parse-byte-size.js';
import { normalizeUploadConfig } from './upload-config.js';
import { normalizeGraphqlConfig } from './graphql-config.js';
import { normalizeDocumentationConfig } from './documentation-config.js';
import { normalizeWebhookDelivery, normalizeWebhooks } from './webhooks-config.js';
import { normalizeUsersPermissionsConfig } from './users-permissions-config.js';
import { parseEmailConfig } from '../email/email-transport.js';

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
const fail = (where: string, problem: string): never => {
  throw new ProjectError(`config/${where}: ${problem}`);
};

/**
 * Applies Strapi's defaults to the raw config files and checks the values Cairn relies on.
 * Defaults are Strapi's code defaults (not the project template's): `rest.defaultLimit` 25,
 * no `maxLimit`, `withCount` true, strict params off, prefix `/api`, port 1337.
 */
export function normalizeConfig(
  raw: RawConfig,
  dir: string,
  env: {
    HOST?: string | undefined;
    PORT?: string | undefined;
    JWT_SECRET?: string | undefined;
    NODE_ENV?: string | undefined;
    CAIRN_REDIS_URL?: string | undefined;
    CAIRN_REDIS_PREFIX?: string | undefined;
  },
): Config {
  const server = obj(raw.server);
  const port = Number(env.PORT ?? server.port ?? 1337);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail('server', `"port" must be an integer between 0 and 65535, got ${JSON.stringify(server.port)}`);
  const middlewares = Array.isArray(raw.middlewares) ? raw.middlewares : [];
  const middlewareConfig = (name: string): Obj => {
    const entry = middlewares.find((m) => obj(m).name === name);
    return obj(obj(entry).config);
  };
  const plugins = obj(raw.plugins);
  const admin = normalizeAdminConfig(raw.admin);
  return Object.freeze({
    server: {
      host: String(env.HOST ?? server.host ?? '0.0.0.0'),
      port,
      appKeys: Array.isArray(obj(server.app).keys) ? (obj(server.app).keys as unknown[]).map(String) : [],
      url: typeof server.url === 'string' ? server.url.replace(/\/+$/, '') : '',
      trustProxy: server.proxy === true || obj(server.proxy).koa === true,
    },
    database: normalizeDatabase(obj(raw.database), dir),
    api: normalizeApi(obj(raw.api), plugins),
    admin,
    i18n: normalizeI18n(obj(obj(plugins.i18n).config)),
    cors: normalizeCors(middlewareConfig('strapi::cors')),
    bodyLimit: parseByteSize(
      middlewareConfig('strapi::body').jsonLimit ?? '1mb',
      'middlewares',
      'strapi::body jsonLimit',
    ),
    middlewares: normalizeMiddlewares(raw.middlewares, admin.preview.frameOrigins),
    usersPermissions: normalizeUsersPermissionsConfig(obj(plugins['users-permissions']).config, env),
    email: parseEmailConfig(obj(plugins.email).config),
    upload: normalizeUploadConfig(obj(plugins.upload).config, raw.server, dir),
    graphql: normalizeGraphqlConfig(plugins.graphql, dir, env.NODE_ENV),
    documentation: normalizeDocumentationConfig(plugins.documentation, dir),
    webhooks: normalizeWebhooks(raw.webhooks),
    webhookDelivery: normalizeWebhookDelivery(server.webhooks),
    permissions: normalizePermissions(raw.permissions),
    customFields: normalizeCustomFields(raw['custom-fields']),
    httpCache: normalizeHttpCache(obj(raw.api).httpCache),
    realtime: normalizeRealtime(obj(raw.api).realtime),
    answerLimits: normalizeAnswerLimits(obj(raw.api).answerLimits),
    cluster: normalizeClusterConfig(server.cairn, env),
  });
}

const CLIENT_ALIASES: Readonly<Record<string, DatabaseClient>> = {
  sqlite: 'sqlite',
  'better-sqlite3': 'sqlite',
  sqlite3: 'sqlite',
  postgres: 'postgres',
  pg: 'postgres',
  postgresql: 'postgres',
  mysql: 'mysql',
  mysql2: 'mysql',
  mariadb: 'mysql',
};

function normalizeDatabase(database: Obj, dir: string): DatabaseConfig {
  const connection = obj(database.connection);
  const clientName = String(connection.client ?? 'sqlite');
  const client = CLIENT_ALIASES[clientName];
  if (!client) return fail('database', `unknown client "${clientName}"; use sqlite, postgres or mysql`);
  const inner = obj(connection.connection);
  const pool = obj(connection.pool);
  const base = {
    client,
    connection: inner,
    pool: {
      min: Number(pool.min ?? (client === 'sqlite' ? 1 : 2)),
      max: Number(pool.max ?? (client === 'sqlite' ? 1 : 10)),
    },
    acquireConnectionTimeout: Number(connection.acquireConnectionTimeout ?? 60000),
    debug: connection.debug === true,
  };
  if (client !== 'sqlite') return base;
  const filename = String(inner.filename ?? '.tmp/data.db');
  return { ...base, filename: filename === ':memory:' || isAbsolute(filename) ? filename : resolve(dir, filename) };
}

function normalizeApi(api: Obj, plugins: Obj): ApiConfig {
  const rest = obj(api.rest);
  const documents = obj(api.documents);
  const defaultLimit = rest.defaultLimit === undefined ? 25 : Number(rest.defaultLimit);
  if (!Number.isInteger(defaultLimit) || (defaultLimit < 1 && defaultLimit !== -1))
    fail('api', `"rest.defaultLimit" must be a positive integer or -1, got ${JSON.stringify(rest.defaultLimit)}`);
  const maxLimit = rest.maxLimit === undefined || rest.maxLimit === null ? null : Number(rest.maxLimit);
  if (maxLimit !== null && (!Number.isInteger(maxLimit) || maxLimit < 1))
    fail('api', `"rest.maxLimit" must be a positive integer, got ${JSON.stringify(rest.maxLimit)}`);
  const prefix = String(rest.prefix ?? '/api');
  return {
    prefix: prefix === '/' ? '' : `/${prefix.replace(/^\/+|\/+$/g, '')}`,
    defaultLimit,
    maxLimit,
    withCount: rest.withCount !== false,
    strictParams: rest.strictParams === true,
    documentsStrictParams: documents.strictParams === true,
    privateAttributes: Array.isArray(obj(api.responses).privateAttributes)
      ? (obj(api.responses).privateAttributes as unknown[]).map(String)
      : [],
    defaultQueries: normalizeDefaultQueries(api.defaultQueries),
    deepPopulate: normalizeDeepPopulate(api.deepPopulate, plugins),
  };
}

function normalizeI18n(i18n: Obj): Config['i18n'] {
  const locales = Array.isArray(i18n.locales) ? i18n.locales.map(String) : [];
  const defaultLocale = typeof i18n.defaultLocale === 'string' ? i18n.defaultLocale : (locales[0] ?? 'en');
  if (locales.length > 0 && !locales.includes(defaultLocale))
    fail('plugins', `i18n "defaultLocale" "${defaultLocale}" is not in "locales" (${locales.join(', ')})`);
  return { locales, defaultLocale };
}

function normalizeCors(cors: Obj): CorsConfig {
  const origin = cors.origin;
  const list = (value: unknown, fallback: string[]) =>
    Array.isArray(value)
      ? value.map(String)
      : typeof value === 'string'
        ? value.split(',').map((s) => s.trim())
        : fallback;
  return {
    origin: origin === undefined || origin === '*' ? '*' : list(origin, ['*']),
    credentials: cors.credentials !== false,
    methods: list(cors.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']),
    headers: list(cors.headers, ['Content-Type', 'Authorization', 'Origin', 'Accept']),
    expose: list(cors.expose, []),
    maxAge: Number(cors.maxAge ?? 31536000),
  };
}

function normalizePermissions(raw: unknown): ReadonlyMap<string, readonly string[]> {
  const permissions = new Map<string, readonly string[]>();
  if (raw === undefined) return permissions;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    fail('permissions', 'must export an object { <roleType>: [action, …] }');
  for (const [role, actions] of Object.entries(raw as Obj)) {
    if (!Array.isArray(actions) || !actions.every((a) => typeof a === 'string')) {
      fail('permissions', `role "${role}" must map to an array of action strings such as "api::article.article.find"`);
    }
    permissions.set(role, actions as string[]);
  }
  return permissions;
}
