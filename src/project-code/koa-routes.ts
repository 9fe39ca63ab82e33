import type Koa from 'koa';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import type { Logger } from 'pino';
import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { toErrorEnvelope } from '../http/error-envelope.js';
import { requestWith, type HttpRequest, type HttpResponse, type Route } from '../http/http-types.js';
import type { CodeRegistry } from './code-registry.js';
import { answerOf, answerWith, requestOf, type ProjectContext } from './context-state.js';
import { createContext, headersOf, responseOf } from './koa-context.js';
import { readFormBody } from './multipart-body.js';
import { projectFrame } from './unoffered-member.js';

/** The project's global middlewares (`config/middlewares`), split around Strapi's `strapi::errors`. */
export interface GlobalMiddlewares {
  /** Listed before `strapi::errors`: they see errors as answers already made. */
  readonly outer: readonly Middleware[];
  /** Listed after it: an error thrown inside passes through them. */
  readonly inner: readonly Middleware[];
  /** The names, for the start-up log. */
  readonly names: readonly string[];
}

/**
 * `config/middlewares`' own entries (`global::<name>`, `{ name: 'global::<name>', config }`, or
 * `{ resolve: './src/middlewares/x' }`), each made once with its config. Strapi's built-in
 * `strapi::*` entries are Cairn's own (cors, security, body, …) and are skipped here; a package
 * or plugin middleware stops the start naming it.
 */
export function globalMiddlewares(list: unknown, registry: CodeRegistry, strapi: () => unknown): GlobalMiddlewares {
  const entries = Array.isArray(list) ? list : [];
  const outer: Middleware[] = [];
  const inner: Middleware[] = [];
  const names: string[] = [];
  let afterErrors = !entries.some((entry) => nameOf(entry) === 'strapi::errors');
  for (const entry of entries) {
    const name = nameOf(entry);
    if (name === 'strapi::errors') afterErrors = true;
    if (name === null || name.startsWith('strapi::')) continue;
    const local = name.startsWith('global::')
      ? name
      : name.startsWith('./src/middlewares/')
        ? `global::${name.slice('./src/middlewares/'.length).replace(/\.[cm]?[jt]s$/, '')}`
        : null;
    const factory = local ? registry.middleware(local, { api: null }) : undefined;
    if (!factory) {
      throw new ProjectError(
        `config/middlewares: ${name} is not a middleware of the project's src/middlewares; Cairn runs the project's own middlewares and its own built-in ones, not packages or plugins`,
      );
    }
    const config = isRecord(entry) && entry.config !== undefined ? entry.config : {};
    const made: unknown = factory(config, { strapi: strapi() });
    if (typeof made !== 'function') throw new ProjectError(`config/middlewares: ${name} must return (ctx, next) => …`);
    (afterErrors ? inner : outer).push(made as Middleware);
    names.push(name);
  }
  return { outer, inner, names };
}

function nameOf(entry: unknown): string | null {
  if (typeof entry === 'string') return entry;
  if (isRecord(entry) && typeof entry.name === 'string') return entry.name;
  if (isRecord(entry) && typeof entry.resolve === 'string') return entry.resolve;
  return null;
}

/** What runs a request through Koa: the app, the global middlewares and where errors are logged. */
export interface KoaRunner {
  /** A project route: its chain inside the global middlewares and Strapi's error handling. */
  serve(chain: readonly Middleware[]): Route['handle'];
  /** Cairn's own routes inside the global middlewares (unchanged when the project has none). */
  wrap(routes: readonly Route[]): Route[];
}

/**
 * Builds the runner. An error that is not one of Strapi's is a 500, logged with the project file
 * and line. `limits.fileSize`: the largest file a project route's multipart body may carry.
 */
export function createKoaRunner(
  app: Koa,
  globals: GlobalMiddlewares,
  logger: Logger,
  projectDir: string,
  limits: { readonly fileSize: number },
): KoaRunner {
  const errors: Middleware = async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const envelope = toErrorEnvelope(error);
      if (envelope.internal) {
        const site = error instanceof Error ? projectFrame(error.stack ?? '', projectDir) : null;
        logger.error({ err: error }, `${ctx.method} ${ctx.path} failed${site ? ` at ${site}` : ''}`);
      }
      ctx.status = envelope.status;
      ctx.body = bareHttpError(error) ? { data: null, error: withoutDetails(envelope.body.error) } : envelope.body;
    }
  };
  const run = (chain: readonly Middleware[], readsForms: boolean) => {
    const composed = compose([...globals.outer, errors, ...globals.inner, ...chain]);
    return async (request: HttpRequest): Promise<HttpResponse> => {
      // A project route reads a multipart body as Strapi's body parser does; Cairn's own read theirs.
      const form = readsForms && request.multipart ? await readFormBody(request.multipart, limits.fileSize) : null;
      try {
        const ctx = createContext(app, form ? requestWith(request, { body: form.fields }) : request, request.params, {
          kind: 'public',
        });
        if (form) (ctx.request as { files?: unknown }).files = form.files;
        await composed(ctx);
        const answer = answerOf(ctx as ProjectContext);
        if (answer && ctx.body === answer)
          return { ...answer, status: ctx.status, headers: { ...answer.headers, ...headersOf(ctx) } };
        return await responseOf(ctx);
      } finally {
        await form?.cleanup();
      }
    };
  };
  const hasGlobals = globals.outer.length + globals.inner.length > 0;
  return {
    serve: (chain) => run(chain, true),
    wrap: (routes) =>
      hasGlobals ? routes.map((route) => ({ ...route, handle: run([cairnRoute(route)], false) })) : [...routes],
  };
}

/** A Cairn route as the last step of a Koa chain: its answer is put on the context for the middlewares to see. */
function cairnRoute(route: Route): Middleware {
  return async (ctx) =>
    answerWith(ctx, await route.handle(requestOf(ctx as ProjectContext, ctx.params as Record<string, string>)));
}

/**
 * An http-errors error without details (`ctx.throw(400, 'message')`, Koa's own): Strapi's error
 * middleware reads its `details`, undefined, so the answer has none.
 */
function bareHttpError(error: unknown): boolean {
  return (
    error instanceof Error &&
    typeof (error as { expose?: unknown }).expose === 'boolean' &&
    (error as { details?: unknown }).details === undefined
  );
}

function withoutDetails<T extends { details?: unknown }>(error: T): Omit<T, 'details'> {
  const { details: _details, ...rest } = error;
  return rest;
}
