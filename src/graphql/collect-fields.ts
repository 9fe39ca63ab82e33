import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  Kind,
  typeFromAST,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type DirectiveNode,
  type SelectionSetNode,
} from 'graphql';

/** What field collection needs of the operation being run. */
export interface OperationScope {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variables: Readonly<Record<string, unknown>>;
}

/**
 * The fields the selection sets ask of an object of type `type`, by response key (alias or
 * name), as GraphQL execution collects them: `@skip`/`@include` honoured, inline fragments and
 * fragment spreads followed when their type condition applies to `type`, each fragment once.
 */
export function collectFields(
  scope: OperationScope,
  type: GraphQLObjectType,
  selectionSets: readonly (SelectionSetNode | undefined)[],
): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const walk = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (!included(scope, selection)) continue;
      switch (selection.kind) {
        case Kind.FIELD: {
          const key = selection.alias?.value ?? selection.name.value;
          const list = fields.get(key);
          if (list) list.push(selection);
          else fields.set(key, [selection]);
          break;
        }
        case Kind.INLINE_FRAGMENT:
          if (applies(scope, selection.typeCondition?.name.value, type)) walk(selection.selectionSet);
          break;
        case Kind.FRAGMENT_SPREAD: {
          const name = selection.name.value;
          const fragment = scope.fragments[name];
          if (visited.has(name) || !fragment) break;
          visited.add(name);
          if (applies(scope, fragment.typeCondition.name.value, type)) walk(fragment.selectionSet);
          break;
        }
      }
    }
  };
  for (const selectionSet of selectionSets) if (selectionSet) walk(selectionSet);
  return fields;
}

function included(scope: OperationScope, node: { readonly directives?: readonly DirectiveNode[] }): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, scope.variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, scope.variables)?.if !== false;
}

function applies(scope: OperationScope, condition: string | undefined, type: GraphQLObjectType): boolean {
  if (condition === undefined || condition === type.name) return true;
  const conditional = typeFromAST(scope.schema, { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: condition } });
  return conditional !== undefined && isAbstractType(conditional) && scope.schema.isSubType(conditional, type);
}
