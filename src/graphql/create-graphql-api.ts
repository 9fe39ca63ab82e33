import {
  getNullableType,
  isListType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { AccessControl } from '../access/principal.js';
import type { Config } from '../config/config.js';
import type { GraphqlConfig } from '../config/graphql-config.js';
import type { DocumentService } from '../documents/document-service.js';
import type { ReadContext } from '../documents/read-documents.js';
import { answerBudget, type AnswerBudget } from '../documents/answer-budget.js';
import type { Query } from '../query/query-types.js';
import { filesById } from '../upload/files-by-id.js';
import type { Route } from '../http/http-types.js';
import type { Model, Schema } from '../schema/types.js';
import type { UploadContext } from '../upload/upload-service.js';
import type { AuthContext } from '../users-permissions/auth-context.js';
import type { RateLimitCounter } from '../users-permissions/rate-limiter.js';
import { authMutationLimit } from './auth-rate-limit.js';
import type { RoleAdminContext } from '../users-permissions/role-admin.js';
import { buildGraphqlSchema } from './build-graphql-schema.js';
import { contentRootResolver } from './content-resolvers.js';
import type { GraphqlContext } from './graphql-context.js';
import { graphqlTypeModels } from './graphql-naming.js';
import type { GraphqlResolvers } from './graphql-resolvers.js';
import { graphqlRoutes } from './graphql-route.js';
import { pluginRootResolver } from './plugin-resolvers.js';
import { entriesKey } from './plan-selection.js';
import { ForbiddenError } from '../core/errors.js';

/** Everything the GraphQL endpoint is a consumer of: the same services the REST routes use. */
export interface GraphqlApiDeps {
  readonly schema: Schema;
  readonly config: Config;
  readonly graphql: GraphqlConfig;
  readonly service: DocumentService;
  readonly access: AccessControl;
  readonly read: ReadContext;
  readonly auth: AuthContext;
  readonly roles: RoleAdminContext;
  readonly reloadRoles: () => Promise<void>;
  readonly upload: UploadContext;
  /** The auth routes' rate limiter, whose windows the auth mutations count in too. */
  readonly limiter: RateLimitCounter;
  /** Reports a resolver failure that is not one of Cairn's errors (answered `Internal Server Error`). */
  readonly onUnexpected: (error: unknown) => void;
}

/** The generated schema and the endpoint's routes. */
export interface GraphqlApi {
  readonly schema: GraphQLSchema;
  readonly routes: Route[];
}

/**
 * Builds the plugin's schema for the project once, at start, with its resolvers: root fields
 * run one document-service call each (content types) or the users-permissions and upload flows
 * (plugin fields); relation-like fields only read what the root's one read put under their
 * response key; dynamic-zone items are typed by their `__component`.
 */
export function createGraphqlApi(deps: GraphqlApiDeps): GraphqlApi {
  const typeModels = graphqlTypeModels(deps.schema);
  const typeNames = new Map<string, string>();
  for (const [name, model] of typeModels) typeNames.set(model.uid, name);
  const holder: { schema: GraphQLSchema | null } = { schema: null };
  const typeOf = (model: Model) => {
    const name = typeNames.get(model.uid);
    const type = name && holder.schema ? holder.schema.getType(name) : undefined;
    return isObjectType(type) ? type : null;
  };
  const fileType = deps.schema.contentTypes.get('plugin::upload.file');
  const readFile = async (id: number) => {
    if (!fileType) return null;
    // As every answered file: a private provider's URLs signed (upload/file-url-signer.ts).
    const [file] = await deps.upload.urls.signFiles(await filesById(deps.read, fileType, [id], FILE_QUERY));
    return file ?? null;
  };
  // One budget per request (its context), shared by its root fields: aliases cannot multiply it.
  const answers = new WeakMap<GraphqlContext, AnswerBudget>();
  const answerOf = (context: GraphqlContext): AnswerBudget => {
    let answer = answers.get(context);
    if (!answer) answers.set(context, (answer = answerBudget(deps.config.answerLimits)));
    return answer;
  };
  const content = {
    answerOf,
    model: deps.schema,
    config: deps.graphql,
    defaultLocale: deps.config.i18n.defaultLocale,
    typeOf,
    service: deps.service,
    componentOfTypeName: (name: string) => {
      const model = typeModels.get(name);
      return model?.modelType === 'component' ? model.uid : undefined;
    },
  };
  const plugin = { ...deps, readFile, countMutation: authMutationLimit(deps.limiter, deps.config.api.prefix) };
  const resolvers: GraphqlResolvers<GraphqlContext> = {
    root: (operation) =>
      'type' in operation ? contentRootResolver(content, operation) : pluginRootResolver(plugin, operation.kind),
    nested: (owner, field, connection) => {
      const attribute = owner.attributes.get(field);
      // A morph relation (UploadFile.related) has no target to read: Cairn returns none of its entries.
      const read =
        field === 'localizations' ||
        (attribute !== undefined && (attribute.type !== 'relation' || attribute.target !== undefined));
      if (!read) return connection ? () => ({ nodes: [] }) : emptyField;
      return connection ? connectionField : entriesField;
    },
    resolveType: (value) => {
      const uid = (value as { __component?: unknown } | null)?.__component;
      return typeof uid === 'string' ? typeNames.get(uid) : undefined;
    },
  };
  holder.schema = buildGraphqlSchema(deps.schema, { shadowCRUD: deps.graphql.shadowCRUD }, resolvers);
  return {
    schema: holder.schema,
    routes: graphqlRoutes({
      schema: holder.schema,
      config: deps.graphql,
      access: deps.access,
      onUnexpected: deps.onUnexpected,
    }),
  };
}

/**
 * The entries the root's read put under a field's response key (`entriesKey`). A document a
 * users-permissions flow read has its relations under their own names. A field with nothing
 * there was left out of the read because the caller may not `find` its target: the plugin's
 * `Forbidden access` at that path; one whose own arguments were refused answers that error there.
 */
function entriesOf(source: unknown, context: GraphqlContext, info: GraphQLResolveInfo): unknown {
  const refused = info.fieldNodes[0] ? context.fieldErrors.get(info.fieldNodes[0]) : undefined;
  if (refused) throw refused;
  const record = (source ?? {}) as Record<string, unknown>;
  const own = entriesKey(String(info.path.key));
  if (Object.hasOwn(record, own)) return record[own];
  if (info.path.key === info.fieldName && Object.hasOwn(record, info.fieldName)) return record[info.fieldName];
  throw new ForbiddenError('Forbidden access');
}

/** A file read whole, as the upload API shows it. */
const FILE_QUERY: Query = {
  filters: null,
  sort: [],
  fields: null,
  populate: [],
  pagination: { mode: 'all', withCount: false },
  status: 'published',
  locale: null,
  publicationFilter: null,
  search: null,
};

/** A relation-like field: its entries, `[]` or null when there are none. */
const entriesField: GraphQLFieldResolver<unknown, GraphqlContext> = (source, _args, _context, info) =>
  entriesOf(source, _context, info) ?? emptyField(source, _args, _context, info);

/** A relation's `_connection` field: its entries as `nodes`. */
const connectionField: GraphQLFieldResolver<unknown, GraphqlContext> = (source, _args, _context, info) => {
  const value = entriesOf(source, _context, info);
  return { nodes: Array.isArray(value) ? value : [] };
};

/** No entries: `[]` for a list field, null otherwise. */
const emptyField: GraphQLFieldResolver<unknown, GraphqlContext> = (_source, _args, _context, info) =>
  isListType(getNullableType(info.returnType)) ? [] : null;
