import type { FieldNode, GraphQLObjectType, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import type { GraphqlConfig } from '../config/graphql-config.js';
import { withSortedFields } from '../query/normalize-fields.js';
import { normalizeLocale, normalizePublicationFilter } from '../query/normalize-params.js';
import { hasNestedFilter } from '../query/normalize-query.js';
import type { Pagination, Query } from '../query/query-types.js';
import type { ContentType, Model, Schema } from '../schema/types.js';
import { filtersOf, sortOf, statusOf } from './graphql-args.js';
import { planSelection, type SelectionPlan } from './plan-selection.js';

/** What turning a root field into a Query needs: the model, the plugin's settings, the generated types. */
export interface QueryScope {
  readonly model: Schema;
  readonly config: GraphqlConfig;
  readonly defaultLocale: string;
  typeOf(model: Model): GraphQLObjectType | null;
}

/** The root field's arguments (as graphql-js coerced them). */
export type FieldArgs = Readonly<Record<string, unknown>>;

/**
 * The Query a root field of `type` runs: its arguments (filters, sort, pagination, status,
 * locale, publication filter) and, from the selection sets, the fields and populate tree of the
 * entries it returns (`entries`: the selection sets of the entry objects, e.g. those under a
 * connection's `nodes`). With `fieldErrors`, a relation-like field whose own arguments are refused
 * is left out and recorded there, to fail at its own path.
 */
export function rootQuery(
  scope: QueryScope,
  info: GraphQLResolveInfo,
  type: ContentType,
  args: FieldArgs,
  entries: readonly (SelectionSetNode | undefined)[],
  pagination: Pagination,
  fieldErrors?: WeakMap<FieldNode, Error>,
): Query {
  const plan = selectionOf(scope, info, type, entries, fieldErrors);
  const filters = filtersOf(scope.model, type, args.filters);
  const sort = sortOf(scope.model, type, args.sort);
  return {
    filters,
    sort,
    fields: hasNestedFilter(filters) ? withSortedFields(plan.fields, sort) : plan.fields,
    populate: plan.populate,
    pagination,
    status: statusOf(args.status),
    locale: normalizeLocale(type, args.locale ?? undefined, scope.defaultLocale),
    publicationFilter: normalizePublicationFilter(
      type,
      publicationFilterOf(args.publicationFilter),
      hasPublished(args),
    ),
    search: null,
    fromSelection: true,
  };
}

/** One entry: no page. */
export const ONE: Pagination = { mode: 'all', withCount: false };

function selectionOf(
  scope: QueryScope,
  info: GraphQLResolveInfo,
  type: ContentType,
  entries: readonly (SelectionSetNode | undefined)[],
  fieldErrors: WeakMap<FieldNode, Error> | undefined,
): SelectionPlan {
  const objectType = scope.typeOf(type);
  if (!objectType) return { fields: [], populate: [] };
  return planSelection(
    {
      schema: info.schema,
      fragments: info.fragments,
      variables: info.variableValues,
      model: scope.model,
      config: scope.config,
      typeOf: scope.typeOf,
      ...(fieldErrors && {
        onFieldError: (nodes: readonly FieldNode[], error: Error) => {
          for (const node of nodes) fieldErrors.set(node, error);
        },
      }),
    },
    type,
    objectType,
    entries,
  );
}

/** `HAS_PUBLISHED_VERSION` → `has-published-version`. */
function publicationFilterOf(raw: unknown): unknown {
  return typeof raw === 'string' ? raw.toLowerCase().replaceAll('_', '-') : undefined;
}

function hasPublished(args: FieldArgs): unknown {
  return typeof args.hasPublishedVersion === 'boolean' ? String(args.hasPublishedVersion) : undefined;
}
