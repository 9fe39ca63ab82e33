import type { Context } from 'koa';
import type { Principal } from '../access/principal.js';
import { requestWith, type HttpRequest, type HttpResponse } from '../http/http-types.js';
import { sameQuery } from './query-copies.js';

/*
 * What Cairn keeps on a project route's Koa context (the caller, the request it was made from and
 * the query project code sees, the route served) and reads back from it. Koa itself is not
 * loaded here: code that only reads a context (Cairn's own plugin actions, the plugin runtime)
 * does not make a start load Koa (koa-context.ts makes the contexts).
 */

/** Where the bridge keeps the caller Cairn authenticated on a context (project code never sees it). */
const PRINCIPAL = Symbol('cairn.principal');
/** The request the context was made from, and its query as project code sees it: made on first read (queryCopy), or set by it. */
const QUERY_SEEN = Symbol('cairn.querySeen');
/** The route a project-code chain serves (`GET /api/users/me`). */
const SERVED_ROUTE = Symbol('cairn.servedRoute');
/** The caller behind a `ctx.state.auth` object (read back by `strapi.contentAPI.sanitize`). */
const AUTH_PRINCIPAL = Symbol('cairn.authPrincipal');

/** Where a Cairn route's own answer waits while the project's global middlewares run around it. */
const ANSWER = Symbol('cairn.answer');

/** The request a context was made from, and its query as project code sees it. */
export interface QuerySeen {
  readonly request: HttpRequest;
  /** What `ctx.query` is (undefined until first read or set). */
  query: Record<string, unknown> | undefined;
  /** The parse it was copied from. */
  original: unknown;
}

/** A Koa context with what Strapi adds to it (`ctx.send`, `ctx.badRequest`, …). */
export type ProjectContext = Context;

/** Puts the request a context was made from, and its caller, on a new context (koa-context.ts). */
export function attachRequest(ctx: ProjectContext, request: HttpRequest, principal: Principal): void {
  const seen: QuerySeen = { request, query: undefined, original: undefined };
  (ctx.request as unknown as Record<symbol, QuerySeen>)[QUERY_SEEN] = seen;
  (ctx as unknown as Record<symbol, unknown>)[PRINCIPAL] = principal;
}

/** The query state of a context's Koa request (its `ctx.request`). */
export function querySeenOf(request: object): QuerySeen {
  return (request as Record<symbol, QuerySeen>)[QUERY_SEEN] as QuerySeen;
}

/** Records the caller Cairn authenticated for this context (the route's `authenticate` step). */
export function setPrincipal(ctx: ProjectContext, principal: Principal): void {
  (ctx as unknown as Record<symbol, unknown>)[PRINCIPAL] = principal;
}

/** Records the route this context is served by, as `METHOD path` with the route's full path. */
export function setServedRoute(ctx: ProjectContext, key: string): void {
  (ctx as unknown as Record<symbol, unknown>)[SERVED_ROUTE] = key;
}

/** The route this context is served by (`GET /api/users/me`), when a project-code chain set it. */
export function servedRouteOf(ctx: ProjectContext): string | undefined {
  return (ctx as unknown as Record<symbol, string | undefined>)[SERVED_ROUTE];
}

/** `auth` (a `ctx.state.auth` object) marked as standing for `principal`; the same object. */
export function withPrincipal<T extends object>(auth: T, principal: Principal): T {
  Object.defineProperty(auth, AUTH_PRINCIPAL, { value: principal, enumerable: false });
  return auth;
}

/** The caller a `ctx.state.auth` object stands for, when Cairn made it. */
export function principalOfAuth(auth: unknown): Principal | undefined {
  return typeof auth === 'object' && auth !== null
    ? (auth as Record<symbol, Principal | undefined>)[AUTH_PRINCIPAL]
    : undefined;
}

/** The caller Cairn authenticated for this context. */
export function principalOf(ctx: ProjectContext): Principal {
  return (ctx as unknown as Record<symbol, Principal>)[PRINCIPAL] ?? { kind: 'public' };
}

/**
 * The HttpRequest of this context as project code left it: its query, body and the given params.
 * The raw query string is kept while the query is the one received (not read, or read and left
 * as it was), so its parse is shared with every other request of that string.
 */
export function requestOf(ctx: ProjectContext, params: Readonly<Record<string, string>>): HttpRequest {
  const seen = querySeenOf(ctx.request);
  const { request } = seen;
  const read = seen.query;
  const unchanged = read === undefined || (seen.original !== undefined && sameQuery(read, seen.original));
  return requestWith(request, {
    params,
    body: (ctx.request as { body?: unknown }).body,
    rawQuery: unchanged ? request.rawQuery : undefined,
    ...(read !== undefined && { query: read }),
  });
}

/**
 * Puts one of Cairn's answers on a Koa context: its status and headers, and its body (kept whole
 * when it is a stream, a page or bytes: the runner answers it as it is once the chain has run).
 */
export function answerWith(ctx: ProjectContext, response: HttpResponse): void {
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
  if (response.stream || response.html !== undefined || response.raw !== undefined) {
    (ctx as unknown as Record<symbol, HttpResponse>)[ANSWER] = response;
    ctx.body = response;
    return;
  }
  if (response.body !== undefined) ctx.body = response.body;
}

/** The answer of Cairn's own route a context carries, when answerWith kept it whole. */
export function answerOf(ctx: ProjectContext): HttpResponse | undefined {
  return (ctx as unknown as Record<symbol, HttpResponse | undefined>)[ANSWER];
}
