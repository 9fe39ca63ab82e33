import {
  BREAK,
  getNamedType,
  isInputObjectType,
  Kind,
  typeFromAST,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLInputObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/** Runs one operation of a validated document: `execute`'s result, or its promise. */
export type RunOperation = (
  context: unknown,
  variables: Record<string, unknown> | undefined,
) => Promise<ExecutionResult> | ExecutionResult;

/**
 * The most selections an operation may expand to, every fragment spread counted each time it
 * appears, for it to be compiled: graphql-jit generates code for each spread where it stands, so
 * fragments spreading each other several times would make its work (and code) grow exponentially
 * with the document's size. Real queries expand to a few hundred; anything larger runs through
 * graphql-js' interpreter, which merges repeated spreads as it goes.
 */
const MAX_COMPILED_SELECTIONS = 5_000;

/**
 * Compiled execution, remembered per validated document and operation name: the document's
 * selection sets are turned once into a function that resolves and completes the answer
 * without graphql-js walking the AST for every value (graphql-jit). A document is compiled the
 * second time it runs (prepared documents are cached per query text, so that is a text clients
 * send again; a text sent once is not worth compiling). `null` means: execute with graphql-js
 * (first run, a document that expands too far to compile, or one the compiler refused: a
 * validated document should never be, so `onRefused` hears why).
 */
export function compiledOperations(
  schema: GraphQLSchema,
  onRefused: (reason: unknown) => void,
): (document: DocumentNode, operationName: string | undefined) => RunOperation | null {
  const known = new WeakMap<DocumentNode, Map<string, RunOperation | null | typeof SEEN>>();
  return (document, operationName) => {
    let byName = known.get(document);
    if (!byName) known.set(document, (byName = new Map()));
    const key = operationName ?? '';
    const entry = byName.get(key);
    if (entry === undefined) {
      byName.set(key, SEEN);
      return null;
    }
    if (entry !== SEEN) return entry;
    const run = compile(schema, document, operationName, onRefused);
    byName.set(key, run);
    return run;
  };
}

const SEEN = Symbol('seen once');

function compile(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  onRefused: (reason: unknown) => void,
): RunOperation | null {
  if (asksIntrospection(document)) return null;
  if (takesRecursiveInput(schema, document)) return null;
  if (expandedSelections(document, MAX_COMPILED_SELECTIONS) > MAX_COMPILED_SELECTIONS) return null;
  let compiled: CompiledQuery | ExecutionResult;
  try {
    compiled = compileQuery(schema, document, operationName, { disablingCapturingStackErrors: true });
  } catch (error) {
    onRefused(error);
    return null;
  }
  if (!isCompiledQuery(compiled)) {
    onRefused(compiled.errors?.[0] ?? compiled);
    return null;
  }
  return (context, variables) => compiled.query(undefined, context, variables);
}

/**
 * Whether the document selects `__schema` or `__type` anywhere: introspection (tools, codegen)
 * is left to graphql-js, whose introspection types the compiler does not execute the same way.
 */
function asksIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * Whether a variable of the document is of an input type that contains itself (`ArticleFiltersInput`
 * holds `and: [ArticleFiltersInput]`, and its relations' filters hold it again): graphql-jit
 * unrolls such a type's coercion code without end, until the process runs out of memory (a
 * two-condition filter in a variable, sent twice, did). Those operations run through graphql-js.
 */
function takesRecursiveInput(schema: GraphQLSchema, document: DocumentNode): boolean {
  const acyclic = new Set<GraphQLInputObjectType>();
  const recursive = (type: GraphQLInputObjectType, path: Set<GraphQLInputObjectType>): boolean => {
    if (path.has(type)) return true;
    if (acyclic.has(type)) return false;
    path.add(type);
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      if (isInputObjectType(named) && recursive(named, path)) return true;
    }
    path.delete(type);
    acyclic.add(type);
    return false;
  };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      const type = typeFromAST(schema, variable.type);
      const named = type ? getNamedType(type) : undefined;
      if (isInputObjectType(named) && recursive(named, new Set())) return true;
    }
  }
  return false;
}

/**
 * The number of selections (fields, inline fragments, spreads) an operation's selection sets
 * come to with every spread replaced by its fragment, each time it appears; stops counting past
 * `limit`. Each fragment's own figure is computed once, so the count itself stays linear.
 */
export function expandedSelections(document: DocumentNode, limit: number): number {
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  }
  const sizes = new Map<string, number>();
  const sizeOf = (selectionSet: SelectionSetNode): number => {
    let total = 0;
    for (const selection of selectionSet.selections) {
      total += 1;
      if (selection.kind === Kind.FRAGMENT_SPREAD) total += fragmentSize(selection.name.value);
      else if (selection.selectionSet) total += sizeOf(selection.selectionSet);
      if (total > limit) return limit + 1;
    }
    return total;
  };
  const fragmentSize = (name: string): number => {
    const known = sizes.get(name);
    if (known !== undefined) return known;
    sizes.set(name, limit + 1); // a cycle (refused by validation before this runs) counts as too large
    const selectionSet = fragments.get(name);
    const size = selectionSet ? sizeOf(selectionSet) : 0;
    sizes.set(name, size);
    return size;
  };
  let total = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) total += sizeOf(definition.selectionSet);
    if (total > limit) return limit + 1;
  }
  return total;
}
