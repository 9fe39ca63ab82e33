import type * as TS from 'typescript';
import type { TypeScriptApi } from './load-typescript.js';
import { scriptKind } from './read-query-middlewares.js';

/** The core actions a route can name; other handlers are custom controller actions. */
const CORE_VERBS = new Set(['find', 'findOne', 'create', 'update', 'delete']);

/** A route a routes file attaches a middleware to. */
export interface MiddlewareRoute {
  /** The middleware as routes name it (`api::page.page-populate`). */
  readonly middleware: string;
  /** The route's action (`api::page.page.find`), or the custom handler (`page.findBySlug`). */
  readonly action: string;
  /** Whether the action is one of the content API's core routes (Cairn serves no custom ones). */
  readonly core: boolean;
}

/**
 * The middlewares a routes file of `src/api/<api>/routes/` attaches to routes, read from its
 * syntax tree (never run):
 *
 *   factories.createCoreRouter('api::page.page', { config: { find: { middlewares: ['api::page.page-populate'] } } })
 *     → [{ middleware: 'api::page.page-populate', action: 'api::page.page.find', core: true }]
 *   { routes: [{ method: 'GET', path: '/pages', handler: 'page.find', config: { middlewares: [...] } }] }
 *     → action 'api::<api>.page.find' (a handler `api::page.page.find` is taken as written)
 *
 * A middleware is named by a string or by `{ name: '…' }`.
 */
export function readMiddlewareRoutes(ts: TypeScriptApi, api: string, file: string, source: string): MiddlewareRoute[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, scriptKind(ts, file));
  const found: MiddlewareRoute[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node) && calleeName(ts, node.expression) === 'createCoreRouter') {
      const [uid, options] = node.arguments;
      if (uid && ts.isStringLiteralLike(uid) && options && ts.isObjectLiteralExpression(options)) {
        const config = property(ts, options, 'config');
        if (config && ts.isObjectLiteralExpression(config)) {
          for (const entry of config.properties) {
            if (!ts.isPropertyAssignment(entry) || !ts.isObjectLiteralExpression(entry.initializer)) continue;
            const verb = nameOf(ts, entry.name);
            if (verb === null) continue;
            for (const middleware of middlewaresOf(ts, entry.initializer))
              found.push({ middleware, action: `${uid.text}.${verb}`, core: CORE_VERBS.has(verb) });
          }
        }
      }
    } else if (ts.isObjectLiteralExpression(node)) {
      const handler = property(ts, node, 'handler');
      const config = property(ts, node, 'config');
      if (handler && ts.isStringLiteralLike(handler) && config && ts.isObjectLiteralExpression(config)) {
        const action = handler.text.startsWith('api::') ? handler.text : `api::${api}.${handler.text}`;
        const verb = action.slice(action.lastIndexOf('.') + 1);
        for (const middleware of middlewaresOf(ts, config))
          found.push({ middleware, action, core: CORE_VERBS.has(verb) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

function middlewaresOf(ts: TypeScriptApi, routeConfig: TS.ObjectLiteralExpression): string[] {
  const list = property(ts, routeConfig, 'middlewares');
  if (!list || !ts.isArrayLiteralExpression(list)) return [];
  const names: string[] = [];
  for (const item of list.elements) {
    if (ts.isStringLiteralLike(item)) names.push(item.text);
    else if (ts.isObjectLiteralExpression(item)) {
      const name = property(ts, item, 'name');
      if (name && ts.isStringLiteralLike(name)) names.push(name.text);
    }
  }
  return names;
}

function property(ts: TypeScriptApi, object: TS.ObjectLiteralExpression, key: string): TS.Expression | undefined {
  for (const entry of object.properties)
    if (ts.isPropertyAssignment(entry) && nameOf(ts, entry.name) === key) return entry.initializer;
  return undefined;
}

function nameOf(ts: TypeScriptApi, name: TS.PropertyName): string | null {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : null;
}

function calleeName(ts: TypeScriptApi, callee: TS.Expression): string | null {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return null;
}
