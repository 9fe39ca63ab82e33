import {
  getNamedType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import { NotFoundError } from '../core/errors.js';
import type { AnswerBudget } from '../documents/answer-budget.js';
import type { DocumentService } from '../documents/document-service.js';
import type { ContentType } from '../schema/types.js';
import { collectFields } from './collect-fields.js';
import type { GraphqlContext } from './graphql-context.js';
import { paginationOf } from './graphql-args.js';
import { ONE, rootQuery, type FieldArgs, type QueryScope } from './graphql-query.js';
import type { RootOperation } from './graphql-resolvers.js';

/** What the content types' root fields run on. */
export interface ContentResolverDeps extends QueryScope {
  readonly service: DocumentService;
  /** The answer budget every root field of the request shares (answer-budget.ts), one per context. */
  answerOf(context: GraphqlContext): AnswerBudget;
  /** The component uid of a generated component type name (`ComponentSharedQuote` → `shared.quote`). */
  componentOfTypeName(name: string): string | undefined;
}

type Resolver = GraphQLFieldResolver<unknown, GraphqlContext>;

/**
 * The resolvers of `articles`, `articles_connection`, `article`, `global`, `createArticle`,
 * `updateArticle`/`updateGlobal` and `deleteArticle`/`deleteGlobal`: each checks the same
 * permission action as the REST route (`api::article.article.find` …), builds one Query from its
 * arguments and selection set, and makes one call to the document service, which reads the
 * whole selection (relations, components, zones at any depth) with one statement per level.
 */
export function contentRootResolver(
  deps: ContentResolverDeps,
  operation: Extract<RootOperation, { readonly type: ContentType }>,
): Resolver {
  const { service } = deps;
  const type = operation.type;
  const own = (info: GraphQLResolveInfo) => info.fieldNodes.map((node) => node.selectionSet);
  switch (operation.kind) {
    case 'findMany':
      return async (_source, args: FieldArgs, context, info) => {
        context.require(actionOf(type, 'find'));
        const query = rootQuery(
          deps,
          info,
          type,
          args,
          own(info),
          paginationOf(deps.config, args.pagination, false),
          context.fieldErrors,
        );
        return (await service.findMany(type, query, context.principal, deps.answerOf(context))).documents;
      };
    case 'connection':
      return async (_source, args: FieldArgs, context, info) => {
        context.require(actionOf(type, 'find'));
        const { nodes, pageInfo } = connectionParts(info);
        const query = rootQuery(
          deps,
          info,
          type,
          args,
          nodes,
          paginationOf(deps.config, args.pagination, pageInfo),
          context.fieldErrors,
        );
        const { documents, pagination } = await service.findMany(
          type,
          query,
          context.principal,
          deps.answerOf(context),
        );
        return { nodes: documents, pageInfo: pageInfoOf(pagination, documents.length) };
      };
    case 'findOne':
      return async (_source, args: FieldArgs, context, info) => {
        context.require(actionOf(type, 'findOne'));
        const query = rootQuery(deps, info, type, args, own(info), ONE, context.fieldErrors);
        return service.findOne(type, String(args.documentId), query, context.principal, deps.answerOf(context));
      };
    case 'findSingle':
      return async (_source, args: FieldArgs, context, info) => {
        context.require(actionOf(type, 'find'));
        return service.findFirst(
          type,
          rootQuery(deps, info, type, args, own(info), ONE, context.fieldErrors),
          context.principal,
          deps.answerOf(context),
        );
      };
    case 'create':
      return async (_source, args: FieldArgs, context, info) => {
        context.require(actionOf(type, 'create'));
        const query = rootQuery(deps, info, type, args, own(info), ONE, context.fieldErrors);
        return service.create(type, inputData(deps, type, args.data), query, context.principal);
      };
    case 'update':
      return async (_source, args: FieldArgs, context, info) => {
        context.require(actionOf(type, 'update'));
        const query = rootQuery(deps, info, type, args, own(info), ONE, context.fieldErrors);
        const data = inputData(deps, type, args.data);
        if (type.kind === 'singleType') return (await service.put(type, data, query, context.principal)).document;
        const document = await service.update(type, String(args.documentId), data, query, context.principal);
        if (!document) throw new NotFoundError('Document not found');
        return document;
      };
    case 'delete':
      return async (_source, args: FieldArgs, context, info) => {
        context.require(actionOf(type, 'delete'));
        const query = { ...rootQuery(deps, info, type, args, [], ONE), fields: [] };
        const single = type.kind === 'singleType';
        // A single type's document, whichever versions it has (every draft & publish document has a draft).
        const found = single
          ? await service.findFirst(
              type,
              { ...query, status: type.draftAndPublish ? 'draft' : query.status },
              context.principal,
            )
          : null;
        const documentId = single ? (found?.documentId ?? null) : String(args.documentId);
        const deleted =
          documentId !== null &&
          (await service.delete(type, single ? null : String(documentId), query, context.principal));
        if (!deleted) throw new NotFoundError('Document not found');
        return { documentId };
      };
  }
}

/**
 * The permission action a root field checks: the REST route's. The plugins' own types are
 * guarded by their content-API actions (`plugin::upload.content-api.find`, …), as the plugins
 * declare them for GraphQL.
 */
export function actionOf(type: ContentType, verb: 'find' | 'findOne' | 'create' | 'update' | 'delete'): string {
  const own = BUILTIN_ACTIONS.get(type.uid)?.[verb];
  return own ?? `${type.uid}.${verb}`;
}

const BUILTIN_ACTIONS: ReadonlyMap<string, Partial<Record<string, string>>> = new Map([
  ['plugin::upload.file', { find: 'plugin::upload.content-api.find', findOne: 'plugin::upload.content-api.findOne' }],
  ['plugin::i18n.locale', { find: 'plugin::i18n.locales.listLocales', findOne: 'plugin::i18n.locales.listLocales' }],
]);

/** A connection's `nodes` selection sets, and whether it asks for `pageInfo` (a COUNT). */
function connectionParts(info: GraphQLResolveInfo): {
  nodes: (SelectionSetNode | undefined)[];
  pageInfo: boolean;
} {
  const objectType = getNamedType(info.returnType);
  if (!isObjectType(objectType)) return { nodes: [], pageInfo: false };
  const scope = { schema: info.schema, fragments: info.fragments, variables: info.variableValues };
  const fields = [
    ...collectFields(
      scope,
      objectType,
      info.fieldNodes.map((n) => n.selectionSet),
    ).values(),
  ].flat();
  return {
    nodes: fields.filter((f) => f.name.value === 'nodes').map((f) => f.selectionSet),
    pageInfo: fields.some((f) => f.name.value === 'pageInfo'),
  };
}

/** `pageInfo` from the read's pagination meta, in both of Strapi's pagination modes. */
function pageInfoOf(
  meta: { page?: number; pageSize?: number; start?: number; limit?: number; total?: number; pageCount?: number },
  returned: number,
): { page: number; pageSize: number; pageCount: number; total: number } {
  const total = meta.total ?? returned;
  const pageSize = meta.pageSize ?? meta.limit ?? Math.max(returned, 1);
  const page = meta.page ?? Math.floor((meta.start ?? 0) / Math.max(pageSize, 1)) + 1;
  return { page, pageSize, pageCount: meta.pageCount ?? Math.ceil(total / Math.max(pageSize, 1)), total };
}

/**
 * A mutation's `data` in the document service's terms: dynamic-zone items told apart by
 * `__typename` (`ComponentSharedQuote`), as the plugin's clients send them, get their
 * `__component` uid.
 */
function inputData(deps: ContentResolverDeps, type: ContentType, raw: unknown): Record<string, unknown> {
  const data: Record<string, unknown> = { ...(raw as Record<string, unknown> | null) };
  for (const attribute of type.attributes.values()) {
    const items = data[attribute.name];
    if (attribute.type !== 'dynamiczone' || !Array.isArray(items)) continue;
    data[attribute.name] = items.map((item: unknown) => {
      if (!item || typeof item !== 'object' || !('__typename' in item)) return item;
      const { __typename, ...rest } = item as Record<string, unknown>;
      const uid = typeof __typename === 'string' ? deps.componentOfTypeName(__typename) : undefined;
      return uid ? { __component: uid, ...rest } : item;
    });
  }
  return data;
}
