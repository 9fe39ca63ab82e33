import type { DocumentationConfig } from './documentation-config.js';
import type { GraphqlConfig } from './graphql-config.js';
import type { HttpCacheConfig } from './http-cache-config.js';
import type { RealtimeConfig } from './realtime-config.js';
import type { DeepPopulateConfig } from './deep-populate-config.js';
import type { AnswerLimits } from './answer-limits-config.js';
import type { DefaultQueries } from './default-queries-config.js';
/** The validated, frozen configuration a running Cairn works from (see normalize-config.ts). */
import type { AdminConfig } from './admin-config.js';
import type { ClusterConfig } from './cluster-config.js';
import type { EmailConfig } from '../email/email-transport.js';
import type { CustomFieldTypes } from '../schema/custom-fields.js';
import type { MiddlewaresConfig } from './middlewares-config.js';
import type { UploadConfig } from './upload-config.js';
import type { WebhookDeclaration, WebhookDeliveryConfig } from './webhooks-config.js';
import type { UsersPermissionsConfig } from './users-permissions-config.js';

export type DatabaseClient = 'sqlite' | 'postgres' | 'mysql';

export interface DatabaseConfig {
  readonly client: DatabaseClient;
  /** SQLite: absolute path of the database file (`:memory:` allowed). */
  readonly filename?: string;
  /** PostgreSQL/MySQL connection options, as in Strapi's `connection.connection`. */
  readonly connection: Readonly<Record<string, unknown>>;
  readonly pool: { readonly min: number; readonly max: number };
  readonly acquireConnectionTimeout: number;
  readonly debug: boolean;
}

export interface ApiConfig {
  /** Content API prefix, `/api` by default. */
  readonly prefix: string;
  readonly defaultLimit: number;
  /** null: no cap (Strapi's code default when `rest.maxLimit` is unset). */
  readonly maxLimit: number | null;
  readonly withCount: boolean;
  /** `rest.strictParams`: unknown top-level query keys → 400. */
  readonly strictParams: boolean;
  /** `documents.strictParams`: malformed pagination/status/locale values → 400. */
  readonly documentsStrictParams: boolean;
  /** `responses.privateAttributes`: attribute names never output on any type. */
  readonly privateAttributes: readonly string[];
  /** `defaultQueries` (Cairn): each content-API route's default `populate`/`fields`/`filters`/`sort`. */
  readonly defaultQueries: DefaultQueries;
  /** `deepPopulate` (Cairn): how `pLevel` and `populate=deep` are read; null when turned off. */
  readonly deepPopulate: DeepPopulateConfig | null;
}

export interface CorsConfig {
  /** `*` or a list of allowed origins. */
  readonly origin: '*' | readonly string[];
  readonly credentials: boolean;
  readonly methods: readonly string[];
  readonly headers: readonly string[];
  readonly expose: readonly string[];
  readonly maxAge: number;
}

export interface Config {
  readonly server: {
    readonly host: string;
    readonly port: number;
    readonly appKeys: readonly string[];
    /** Public URL of the server (`url`), used in links sent by email; '' when unset. */
    readonly url: string;
    /** `proxy` (or `proxy.koa`): trust `X-Forwarded-*` for the client IP (rate limits). */
    readonly trustProxy: boolean;
  };
  readonly database: DatabaseConfig;
  readonly api: ApiConfig;
  /** `config/admin`: API token salt, encryption key, the admin panel's auth and URL. */
  readonly admin: AdminConfig;
  /**
   * `config/plugins` → `i18n.config` (Cairn options): the locales created at start when missing
   * (none listed: Strapi's first start, the default locale alone on an empty table) and the default
   * locale, stored when the database has none. The running config holds the stored one (app.ts).
   */
  readonly i18n: {
    readonly locales: readonly string[];
    readonly defaultLocale: string;
  };
  readonly cors: CorsConfig;
  /** Maximum JSON/form body size in bytes (`strapi::body` `jsonLimit`, 1 MB by default). */
  readonly bodyLimit: number;
  /** `config/middlewares`: the security headers (`strapi::security`) and `X-Powered-By` (`strapi::poweredBy`). */
  readonly middlewares: MiddlewaresConfig;
  /** `config/plugins` → `users-permissions.config`. */
  readonly usersPermissions: UsersPermissionsConfig;
  /** `config/plugins` → `upload.config` (and the public folder). */
  readonly upload: UploadConfig;
  /** `config/plugins` → `email.config`: how emails leave (a log line unless a provider is set). */
  readonly email: EmailConfig;
  /** `config/plugins` → `graphql`: the GraphQL endpoint's settings, or null without the plugin. */
  readonly graphql: GraphqlConfig | null;
  /** `config/plugins` → `documentation`: the OpenAPI document's settings, and whether `/documentation` is served. */
  readonly documentation: DocumentationConfig;
  /** `config/webhooks`: webhooks as code. */
  readonly webhooks: readonly WebhookDeclaration[];
  /** `config/server` → `webhooks`: default headers and how deliveries are retried. */
  readonly webhookDelivery: WebhookDeliveryConfig;
  /** `config/permissions`: role type → actions granted (on top of the plugin defaults). */
  readonly permissions: ReadonlyMap<string, readonly string[]>;
  /** `config/custom-fields`: custom-field uid → stored type, for plugins Cairn does not know. */
  readonly customFields: CustomFieldTypes;
  /** `config/api` → `httpCache` (Cairn): ETags, `Cache-Control` per type, the response cache. */
  readonly httpCache: HttpCacheConfig;
  /** `config/api` → `realtime` (Cairn): the Server-Sent Events streams of the content types. */
  readonly realtime: RealtimeConfig;
  /** `config/api` → `answerLimits` (Cairn): the most entries and bytes one read's answer may hold. */
  readonly answerLimits: AnswerLimits;
  /** `config/server` → `cairn` (or `CAIRN_REDIS_URL`): how several instances on one database share state. */
  readonly cluster: ClusterConfig;
}
