import type * as TS from 'typescript';
import { DEFAULT_QUERY_KEYS } from '../config/default-queries-config.js';
import { constScope, literalValue, type ConstScope } from './literal-value.js';
import type { TypeScriptApi } from './load-typescript.js';

/** What one middleware file does to `ctx.query`, read from its source (never run). */
export interface QueryMiddleware {
  /** The file, relative to the project (`src/api/page/middlewares/page-populate.ts`). */
  readonly file: string;
  /** The parameters it sets to literals (`populate`, `fields`, `filters`, `sort`). */
  readonly query: Readonly<Record<string, unknown>>;
  /** Why a parameter it sets could not be read as a literal (`populate: getPopulate() is not a literal`). */
  readonly problems: readonly string[];
}

const QUERY_KEYS = new Set(DEFAULT_QUERY_KEYS);

/**
 * The query a Strapi populate middleware sets, read from its syntax tree, or null when the file
 * sets none of `populate`, `fields`, `filters` and `sort` on the request's query. The forms projects
 * write (with any name for the context, `ctx.request.query` as well as `ctx.query`):
 *
 *   ctx.query.populate = { … };                 ctx.query.populate ??= { … };
 *   ctx.query = { ...ctx.query, populate: { … }, filters: { … } };
 *   Object.assign(ctx.query, { populate: { … } });
 *
 * Values may be literals or `const` names bound to literals in the same file (literal-value.ts).
 */
export function readQueryMiddleware(ts: TypeScriptApi, file: string, source: string): QueryMiddleware | null {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, scriptKind(ts, file));
  const scope = constScope(ts, tree);
  const query: Record<string, unknown> = {};
  const problems: string[] = [];
  let found = false;
  const set = (key: string, value: TS.Expression) => {
    found = true;
    const read = literalValue(ts, value, scope);
    if (read.ok) query[key] = read.value;
    else problems.push(`${key}: ${read.reason}`);
  };
  const setAll = (object: TS.Expression) => {
    for (const [key, value] of queryProperties(ts, object, scope)) set(key, value);
  };
  const visit = (node: TS.Node): void => {
    if (ts.isBinaryExpression(node) && isAssignment(ts, node.operatorToken.kind)) {
      const key = queryKeyOf(ts, node.left);
      if (key !== null && QUERY_KEYS.has(key)) set(key, node.right);
      else if (key === null && isQuery(ts, node.left) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken)
        setAll(node.right);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.getText() === 'Object.assign' &&
      node.arguments[0] !== undefined &&
      isQuery(ts, node.arguments[0])
    ) {
      for (const argument of node.arguments.slice(1)) setAll(argument);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found ? { file, query, problems } : null;
}

/** The query properties an object literal sets (spreads of the request's own query left out). */
function queryProperties(ts: TypeScriptApi, object: TS.Expression, scope: ConstScope): [string, TS.Expression][] {
  let node = object;
  while (ts.isParenthesizedExpression(node)) node = node.expression;
  if (ts.isIdentifier(node) && scope.has(node.text)) node = scope.get(node.text) as TS.Expression;
  if (!ts.isObjectLiteralExpression(node)) return [];
  const found: [string, TS.Expression][] = [];
  for (const property of node.properties) {
    if (ts.isPropertyAssignment(property)) {
      const name = property.name;
      const key = ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : null;
      if (key !== null && QUERY_KEYS.has(key)) found.push([key, property.initializer]);
    } else if (ts.isShorthandPropertyAssignment(property) && QUERY_KEYS.has(property.name.text)) {
      found.push([property.name.text, property.name]);
    }
  }
  return found;
}

/** `=`, `??=` and `||=`: each sets the parameter when the middleware runs. */
function isAssignment(ts: TypeScriptApi, kind: TS.SyntaxKind): boolean {
  return (
    kind === ts.SyntaxKind.EqualsToken ||
    kind === ts.SyntaxKind.QuestionQuestionEqualsToken ||
    kind === ts.SyntaxKind.BarBarEqualsToken
  );
}

/** `ctx.query` or `ctx.request.query` (any name for the context). */
function isQuery(ts: TypeScriptApi, node: TS.Expression): boolean {
  if (!ts.isPropertyAccessExpression(node) || node.name.text !== 'query') return false;
  const owner = node.expression;
  if (ts.isIdentifier(owner)) return true;
  return ts.isPropertyAccessExpression(owner) && owner.name.text === 'request' && ts.isIdentifier(owner.expression);
}

/** `populate` for `ctx.query.populate` / `ctx.query['populate']`; null for anything else. */
function queryKeyOf(ts: TypeScriptApi, node: TS.Expression): string | null {
  if (ts.isPropertyAccessExpression(node) && isQuery(ts, node.expression)) return node.name.text;
  if (ts.isElementAccessExpression(node) && isQuery(ts, node.expression) && ts.isStringLiteral(node.argumentExpression))
    return node.argumentExpression.text;
  return null;
}

/** How TypeScript should parse a file by its extension. */
export function scriptKind(ts: TypeScriptApi, file: string): TS.ScriptKind {
  return file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
}
