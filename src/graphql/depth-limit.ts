import {
  GraphQLError,
  Kind,
  type ASTNode,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

/**
 * A validation rule refusing operations nested deeper than `maxDepth` fields, as the plugin's
 * `depthLimit` does: the top-level fields are at depth 0, a field deeper than `maxDepth` is
 * reported (`'<operation name>' exceeds maximum operation depth of 10`) where it stands, and
 * introspection fields (`__schema`, `__type`…) are not counted. A fragment is measured once per
 * depth it is spread at, so the work stays proportional to the document's size however often
 * fragments spread each other (the plugin's rule measures every spread again: exponential).
 */
export function depthLimitRule(maxDepth: number): (context: ValidationContext) => ASTVisitor {
  return (context) => {
    const fragments = fragmentsOf(context);
    const measure = (selectionSet: SelectionSetNode, depth: number, name: string, measured: Set<string>) => {
      for (const selection of selectionSet.selections) {
        if (tooDeep(selection, depth, name)) continue;
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value.startsWith('__') || !selection.selectionSet) continue;
          measure(selection.selectionSet, depth + 1, name, measured);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          measure(selection.selectionSet, depth, name, measured);
        } else {
          const fragment = fragments.get(selection.name.value);
          const key = `${selection.name.value}@${depth}`;
          if (!fragment || measured.has(key)) continue;
          measured.add(key);
          measure(fragment.selectionSet, depth, name, measured);
        }
      }
    };
    const tooDeep = (node: ASTNode, depth: number, name: string): boolean => {
      if (depth <= maxDepth) return false;
      context.reportError(
        new GraphQLError(`'${name}' exceeds maximum operation depth of ${maxDepth}`, { nodes: node }),
      );
      return true;
    };
    return {
      OperationDefinition(operation) {
        measure(operation.selectionSet, 0, operation.name?.value ?? '', new Set());
        return false;
      },
    };
  };
}

/** The document's fragment definitions by name. */
export function fragmentsOf(context: ValidationContext): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of context.getDocument().definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}
