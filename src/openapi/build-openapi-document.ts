import { contentRouteTable } from '../api/content-api.js';
import type { Config } from '../config/config.js';
import type { Schema } from '../schema/types.js';
import { authOperations, authSchemas } from './auth-paths.js';
import { contentOperations, type PathOperation } from './content-paths.js';
import { modelSchemas } from './model-schemas.js';
import { createOpenApiContext, FILE_UID, USER_UID } from './openapi-context.js';
import type { OpenApiDocument, PathItem } from './openapi-types.js';
import { ANYONE, securitySchemes, sharedResponses } from './shared-responses.js';
import { sharedSchemas } from './shared-schemas.js';
import { i18nOperations, uploadOperations } from './upload-paths.js';
import { streamOperations } from './stream-paths.js';
import { usersOperations } from './users-paths.js';

const PLUGIN_ROOTS = {
  'users-permissions': [USER_UID, 'plugin::users-permissions.role'],
  upload: [FILE_UID],
  i18n: ['plugin::i18n.locale'],
} as const;

/**
 * The project's OpenAPI 3.1 document, from its content model and Cairn's route tables: every
 * content-API route of its types (parameters `filters`, `populate`, `fields`, `sort`,
 * `pagination`, `_q`, `status`, `locale`; request and response bodies per type; components, and
 * dynamic zones as `oneOf` told apart by `__component`), the routes of the plugins
 * `config.documentation.plugins` names (users & permissions, upload, i18n), Strapi's error
 * envelope under each error status, and the two ways to authenticate (API tokens, users' JWTs).
 * Paths are below the REST prefix, which the servers' URLs carry (`/api`), as the documentation
 * plugin writes them. Pure: the same project gives the same document.
 */
export function buildOpenApiDocument(schema: Schema, config: Config): OpenApiDocument {
  const { prefix, privateAttributes } = config.api;
  const settings = config.documentation;
  const plugins = new Set(settings.plugins);
  const routes = contentRouteTable(schema, prefix);
  const roots = [
    ...new Set(routes.map((route) => route.type.uid)),
    ...settings.plugins.flatMap((plugin) => PLUGIN_ROOTS[plugin]),
  ];
  const ctx = createOpenApiContext(schema, roots, privateAttributes);
  const operations: PathOperation[] = [
    ...contentOperations(ctx, routes, prefix),
    ...(config.realtime.enabled ? streamOperations(ctx, schema, prefix) : []),
    ...(plugins.has('users-permissions') ? [...authOperations(prefix), ...usersOperations(ctx, prefix)] : []),
    ...(plugins.has('upload') ? uploadOperations(ctx, prefix) : []),
    ...(plugins.has('i18n') ? i18nOperations(ctx, prefix) : []),
  ];
  const paths: Record<string, PathItem> = {};
  for (const { path, method, operation } of operations) paths[path] = { ...paths[path], [method]: operation };
  const tags = [...new Set(operations.flatMap(({ operation }) => operation.tags))];
  return {
    openapi: '3.1.0',
    info: settings.info,
    servers: settings.servers ?? [{ url: `${config.server.url}${prefix}` || '/', description: 'This server' }],
    ...(settings.externalDocs ? { externalDocs: settings.externalDocs } : {}),
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        ...sharedSchemas(),
        ...modelSchemas(ctx),
        ...(plugins.has('users-permissions') ? authSchemas(ctx) : {}),
      },
      responses: sharedResponses(),
      securitySchemes: securitySchemes(),
    },
    security: ANYONE,
  };
}
