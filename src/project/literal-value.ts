import type * as TS from 'typescript';
import type { TypeScriptApi } from './load-typescript.js';

/** A source expression read as data: its value, or why it is not a literal. */
export type LiteralResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/** `const` names of one file bound to their initializers (a name declared twice is left out). */
export type ConstScope = ReadonlyMap<string, TS.Expression>;

const MAX_NESTING = 40;

/** The `const x = <expression>` declarations of a file, for `literalValue` to follow names through. */
export function constScope(ts: TypeScriptApi, file: TS.SourceFile): ConstScope {
  const found = new Map<string, TS.Expression | null>();
  const visit = (node: TS.Node): void => {
    if (ts.isVariableDeclarationList(node) && (node.flags & ts.NodeFlags.Const) !== 0) {
      for (const declaration of node.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
        const name = declaration.name.text;
        found.set(name, found.has(name) ? null : declaration.initializer);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const scope = new Map<string, TS.Expression>();
  for (const [name, expression] of found) if (expression) scope.set(name, expression);
  return scope;
}

/**
 * Reads an expression as plain data without running anything: object and array literals,
 * strings, numbers, booleans, null, `const` names bound to such literals (and spreads of them),
 * through `as`, `satisfies`, `!` and parentheses:
 *
 *   { blocks: { on: { 'shared.hero': { populate: '*' } } }, seo: true } → that object
 *   { ...base, seo: true } with `const base = { cover: true }`          → { cover: true, seo: true }
 *   getPopulate() / { [key]: true } / `${x}`                              → not a literal (reason)
 */
export function literalValue(ts: TypeScriptApi, expression: TS.Expression, scope: ConstScope): LiteralResult {
  try {
    return { ok: true, value: read(ts, expression, scope, 0) };
  } catch (error) {
    if (error instanceof NotLiteral) return { ok: false, reason: error.message };
    throw error;
  }
}

class NotLiteral extends Error {}

function read(ts: TypeScriptApi, node: TS.Expression, scope: ConstScope, depth: number): unknown {
  if (depth > MAX_NESTING) throw new NotLiteral(`nests deeper than ${MAX_NESTING} levels`);
  const inner = unwrap(ts, node);
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) return inner.text;
  if (ts.isNumericLiteral(inner)) return Number(inner.text);
  if (
    ts.isPrefixUnaryExpression(inner) &&
    inner.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(inner.operand)
  )
    return -Number(inner.operand.text);
  if (inner.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (inner.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (inner.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isIdentifier(inner)) return read(ts, resolve(inner, scope), scope, depth + 1);
  if (ts.isArrayLiteralExpression(inner)) {
    const items: unknown[] = [];
    for (const element of inner.elements) {
      if (ts.isSpreadElement(element)) {
        const spread = read(ts, element.expression, scope, depth + 1);
        if (!Array.isArray(spread)) throw new NotLiteral(`${text(element)} does not spread an array literal`);
        items.push(...(spread as unknown[]));
      } else if (ts.isOmittedExpression(element)) {
        throw new NotLiteral('an array with holes');
      } else items.push(read(ts, element, scope, depth + 1));
    }
    return items;
  }
  if (ts.isObjectLiteralExpression(inner)) {
    const object: Record<string, unknown> = {};
    for (const property of inner.properties) {
      if (ts.isSpreadAssignment(property)) {
        const spread = read(ts, property.expression, scope, depth + 1);
        if (spread === null || typeof spread !== 'object' || Array.isArray(spread))
          throw new NotLiteral(`${text(property)} does not spread an object literal`);
        Object.assign(object, spread);
      } else if (ts.isShorthandPropertyAssignment(property)) {
        object[property.name.text] = read(ts, property.name, scope, depth + 1);
      } else if (ts.isPropertyAssignment(property)) {
        object[keyOf(ts, property.name)] = read(ts, property.initializer, scope, depth + 1);
      } else throw new NotLiteral(`${text(property)} is not a plain property`);
    }
    return object;
  }
  throw new NotLiteral(`${text(inner)} is not a literal`);
}

function unwrap(ts: TypeScriptApi, node: TS.Expression): TS.Expression {
  let current = node;
  for (;;) {
    if (
      ts.isParenthesizedExpression(current) ||
      ts.isAsExpression(current) ||
      ts.isNonNullExpression(current) ||
      ts.isTypeAssertionExpression(current) ||
      (typeof ts.isSatisfiesExpression === 'function' && ts.isSatisfiesExpression(current))
    )
      current = current.expression;
    else return current;
  }
}

function resolve(identifier: TS.Identifier, scope: ConstScope): TS.Expression {
  const bound = scope.get(identifier.text);
  if (!bound) throw new NotLiteral(`${identifier.text} is not a const bound to a literal in this file`);
  return bound;
}

function keyOf(ts: TypeScriptApi, name: TS.PropertyName): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  throw new NotLiteral(`the computed key ${text(name)}`);
}

/** A node's source text, shortened for a message. */
function text(node: TS.Node): string {
  const source = node.getText().replace(/\s+/g, ' ');
  return source.length > 40 ? `${source.slice(0, 37)}...` : source;
}
