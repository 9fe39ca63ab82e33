import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext } from 'graphql';
import { fragmentsOf } from './depth-limit.js';

/**
 * A validation rule refusing an operation that selects more than `maxFields` fields once its
 * fragments are expanded: each selected field under each alias is a read to plan (a relation
 * field, one statement), so a small document whose fragments spread each other under aliases
 * (`a: tags { ...F } b: tags { ...F }`, ten levels deep) would otherwise plan millions of reads.
 * Each fragment's size is computed once; a fragment spread twice in one selection set counts
 * once, as execution merges it.
 */
export function expandedFieldsRule(maxFields: number): (context: ValidationContext) => ASTVisitor {
  return (context) => {
    const fragments = fragmentsOf(context);
    const sizes = new Map<string, number>();
    const sizeOf = (selectionSet: SelectionSetNode, spread: Set<string>): number => {
      let total = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          total += 1 + (selection.selectionSet ? sizeOf(selection.selectionSet, new Set()) : 0);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          total += sizeOf(selection.selectionSet, spread);
        } else if (!spread.has(selection.name.value)) {
          spread.add(selection.name.value);
          total += fragmentSize(selection.name.value);
        }
        // Past the limit the exact figure no longer matters (and must not grow without bound).
        if (total > maxFields) return maxFields + 1;
      }
      return total;
    };
    const fragmentSize = (name: string): number => {
      const known = sizes.get(name);
      if (known !== undefined) return known;
      const fragment = fragments.get(name);
      sizes.set(name, 0); // a cycle (refused by GraphQL's own rules) adds nothing
      const size = fragment ? sizeOf(fragment.selectionSet, new Set([name])) : 0;
      sizes.set(name, size);
      return size;
    };
    return {
      OperationDefinition(operation) {
        if (sizeOf(operation.selectionSet, new Set()) > maxFields) {
          const name = operation.name?.value ?? '';
          context.reportError(
            new GraphQLError(`'${name}' selects more than ${maxFields} fields once its fragments are expanded`, {
              nodes: operation,
            }),
          );
        }
        return false;
      },
    };
  };
}
