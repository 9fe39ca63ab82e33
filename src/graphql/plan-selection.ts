import {
  getArgumentValues,
  isObjectType,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type SelectionSetNode,
} from 'graphql';
import { ApplicationError } from '../core/errors.js';
import type { GraphqlConfig } from '../config/graphql-config.js';
import type { DynamicZoneFragment, PopulateNode } from '../query/populate-types.js';
import { getModel, isScalar, type Attribute, type Model, type Schema } from '../schema/types.js';
import { collectFields, type OperationScope } from './collect-fields.js';
import { filtersOf, sortOf, windowOf } from './graphql-args.js';

/**
 * A GraphQL selection set → the read plan's own terms: the scalar `fields` of the model and the
 * populate tree under it, one node per relation-like field (per response key, so two aliases of
 * one relation with different arguments are two reads). The document service then reads the
 * whole tree with one statement per node whatever the number of rows: nesting costs one
 * statement per level, never one per parent. Each node's entries land under the field's response
 * key, which is where the nested resolvers read them.
 */

/** What planning needs beyond the operation: the content model and the plugin's limits. */
export interface SelectionScope extends OperationScope {
  readonly model: Schema;
  readonly config: GraphqlConfig;
  /** The object type generated for a model (a dynamic zone's member types). */
  typeOf(model: Model): GraphQLObjectType | null;
  /**
   * Where a relation-like field whose own arguments are refused (a bad `filters` or `sort`) is
   * reported: the field is left out of the read and answers the error at its own path, as the
   * plugin's nested resolvers do. Without it, the error is thrown (and fails the root field).
   */
  onFieldError?(nodes: readonly FieldNode[], error: ApplicationError): void;
}

/** The fields and populate of one level. */
export interface SelectionPlan {
  readonly fields: string[];
  readonly populate: PopulateNode[];
}

const CONNECTION = '_connection';

/**
 * The key a field's populated entries are written under in their parent: the response key behind
 * a prefix no attribute or column name can have, so that an alias (`id: author`, `title: tags`,
 * `__proto__: author`) never overwrites the document's own values.
 */
export function entriesKey(responseKey: string): string {
  return `\u0000${responseKey}`;
}
const UPLOAD_FILE = 'plugin::upload.file';

/** Plans what the selection sets ask of objects of `type`, made from `model`. */
export function planSelection(
  scope: SelectionScope,
  model: Model,
  type: GraphQLObjectType,
  selectionSets: readonly (SelectionSetNode | undefined)[],
): SelectionPlan {
  const fields = new Set<string>();
  const populate: PopulateNode[] = [];
  const typeFields = type.getFields();
  for (const [key, nodes] of collectFields(scope, type, selectionSets)) {
    const node = nodes[0];
    if (!node) continue;
    const name = node.name.value;
    if (name.startsWith('__') || name === 'documentId' || name === 'id') continue;
    const connection = name.endsWith(CONNECTION);
    const base = connection ? name.slice(0, -CONNECTION.length) : name;
    const attribute = model.attributes.get(base);
    if (attribute && isScalar(attribute)) {
      fields.add(base);
      continue;
    }
    const field = typeFields[name];
    if (!field) continue;
    let planned: PopulateNode | null;
    try {
      planned = relationLikeNode(scope, model, field, key, nodes, base, attribute, connection);
    } catch (error) {
      if (!(error instanceof ApplicationError) || !scope.onFieldError) throw error;
      scope.onFieldError(nodes, error);
      continue;
    }
    if (planned) populate.push(planned);
  }
  return { fields: [...fields], populate };
}

/** The populate node of a relation, media, component, dynamic-zone or `localizations` field. */
function relationLikeNode(
  scope: SelectionScope,
  model: Model,
  field: GraphQLField<unknown, unknown>,
  key: string,
  nodes: readonly FieldNode[],
  base: string,
  attribute: Attribute | undefined,
  connection: boolean,
): PopulateNode | null {
  const args = getArgumentValues(field, nodes[0] as FieldNode, scope.variables);
  const childType = namedObjectType(field.type);
  const children = connection ? connectionNodes(scope, childType, nodes) : nodes.map((n) => n.selectionSet);
  const entries = entriesKey(key);
  const entryType = nodeType(childType, connection);
  if (base === 'localizations')
    return targetNode(scope, 'localizations', base, entries, model, entryType, children, args, true);
  return attribute ? attributeNode(scope, attribute, entries, entryType, children, args) : null;
}

/** The object type of a field's (list, non-null) type; for a union, null. */
function namedObjectType(type: unknown): GraphQLObjectType | null {
  let inner = type as { ofType?: unknown };
  while (inner && 'ofType' in inner && inner.ofType) inner = inner.ofType as { ofType?: unknown };
  return isObjectType(inner) ? inner : null;
}

/** The type of the entries: a `…RelationResponseCollection`'s `nodes`, or the field's own type. */
function nodeType(type: GraphQLObjectType | null, connection: boolean): GraphQLObjectType | null {
  if (!connection || !type) return type;
  const nodes = type.getFields().nodes;
  return nodes ? namedObjectType(nodes.type) : null;
}

/** The selection sets under `nodes` of a `_connection` field (every alias of it merged). */
function connectionNodes(
  scope: SelectionScope,
  type: GraphQLObjectType | null,
  nodes: readonly FieldNode[],
): (SelectionSetNode | undefined)[] {
  if (!type) return [];
  const inner = collectFields(
    scope,
    type,
    nodes.map((n) => n.selectionSet),
  );
  return [...inner.values()]
    .flat()
    .filter((n) => n.name.value === 'nodes')
    .map((n) => n.selectionSet);
}

function attributeNode(
  scope: SelectionScope,
  attribute: Attribute,
  key: string,
  type: GraphQLObjectType | null,
  children: readonly (SelectionSetNode | undefined)[],
  args: Record<string, unknown>,
): PopulateNode | null {
  switch (attribute.type) {
    case 'relation': {
      const target = attribute.target ? getModel(scope.model, attribute.target) : undefined;
      if (!target) return null;
      const toMany = /Many$/.test(attribute.relation);
      return targetNode(scope, 'relation', attribute.name, key, target, type, children, args, toMany);
    }
    case 'media': {
      const target = scope.model.contentTypes.get(UPLOAD_FILE);
      if (!target) return null;
      return targetNode(scope, 'media', attribute.name, key, target, type, children, args, attribute.multiple);
    }
    case 'component': {
      const target = scope.model.components.get(attribute.component);
      if (!target) return null;
      return targetNode(scope, 'component', attribute.name, key, target, type, children, args, attribute.repeatable);
    }
    case 'dynamiczone':
      return zoneNode(scope, attribute.name, attribute.components, key, children);
    default:
      return null;
  }
}

function targetNode(
  scope: SelectionScope,
  kind: 'relation' | 'media' | 'component' | 'localizations',
  attribute: string,
  key: string,
  target: Model,
  type: GraphQLObjectType | null,
  children: readonly (SelectionSetNode | undefined)[],
  args: Record<string, unknown>,
  toMany: boolean,
): PopulateNode {
  const inner = type ? planSelection(scope, target, type, children) : { fields: [], populate: [] };
  return {
    kind,
    attribute,
    key,
    fields: inner.fields,
    sort: sortOf(scope.model, target, args.sort),
    filters: filtersOf(scope.model, target, args.filters),
    count: false,
    populate: inner.populate,
    ...(toMany && { window: windowOf(scope.config, args.pagination) }),
  };
}

/** A dynamic zone: every component of the zone, each with what its type's fragments ask. */
function zoneNode(
  scope: SelectionScope,
  attribute: string,
  components: readonly string[],
  key: string,
  children: readonly (SelectionSetNode | undefined)[],
): PopulateNode {
  const fragments = new Map<string, DynamicZoneFragment>();
  for (const uid of components) {
    const component = scope.model.components.get(uid);
    const type = component ? scope.typeOf(component) : null;
    if (!component || !type) continue;
    const inner = planSelection(scope, component, type, children);
    fragments.set(uid, { fields: inner.fields, filters: null, populate: inner.populate });
  }
  return { kind: 'dynamiczone', attribute, key, fragments };
}
