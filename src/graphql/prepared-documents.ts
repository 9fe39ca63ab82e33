import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { formatRequestError, type FormattedGraphqlError } from './graphql-errors.js';

/** A query text parsed and validated against the schema, or the 400 errors it gets. */
export type PreparedDocument =
  { readonly document: DocumentNode } | { readonly errors: readonly FormattedGraphqlError[] };

/** The most tokens a query document may have: a bound on parsing work, far above real queries. */
const MAX_TOKENS = 20_000;
/** Query texts remembered (clients send the same few texts with other variables), and the longest remembered. */
const MAX_ENTRIES = 500;
const MAX_CACHED_LENGTH = 20_000;

/**
 * Parsing and validation, remembered per query text: the schema and the rules are fixed at
 * start, so a text's outcome never changes, and front ends send the same texts again and again
 * (as Apollo Server keeps its own document cache). The oldest text is forgotten first.
 */
export function preparedDocuments(
  schema: GraphQLSchema,
  rules: readonly ValidationRule[],
): (query: string) => PreparedDocument {
  const known = new Map<string, PreparedDocument>();
  return (query) => {
    const cached = known.get(query);
    if (cached) return cached;
    const prepared = prepare(schema, rules, query);
    if (query.length <= MAX_CACHED_LENGTH) {
      if (known.size >= MAX_ENTRIES) known.delete(known.keys().next().value as string);
      known.set(query, prepared);
    }
    return prepared;
  };
}

function prepare(schema: GraphQLSchema, rules: readonly ValidationRule[], query: string): PreparedDocument {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: MAX_TOKENS });
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [formatRequestError(error, 'GRAPHQL_PARSE_FAILED')] };
    throw error;
  }
  const invalid = validate(schema, document, rules);
  if (invalid.length > 0) return { errors: invalid.map((e) => formatRequestError(e, 'GRAPHQL_VALIDATION_FAILED')) };
  return { document };
}
