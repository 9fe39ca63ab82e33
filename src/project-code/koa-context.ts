import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import Koa, { type Context } from 'koa';
import type { Principal } from '../access/principal.js';
import { toErrorEnvelope } from '../http/error-envelope.js';
import { requestWith, type HttpRequest, type HttpResponse } from '../http/http-types.js';
import { queryCopy, sameQuery } from './query-copies.js';

/** Where the bridge keeps the caller Cairn authenticated on a context (project code never sees it). */
const PRINCIPAL = Symbol('cairn.principal');
/** The request the context was made from, and its query as project code sees it: made on first read (queryCopy), or set by it. */
const QUERY_SEEN = Symbol('cairn.querySeen');
/** The route a project-code chain serves (`GET /api/users/me`). */
const SERVED_ROUTE = Symbol('cairn.servedRoute');
/** The caller behind a `ctx.state.auth` object (read back by `strapi.contentAPI.sanitize`). */
const AUTH_PRINCIPAL = Symbol('cairn.authPrincipal');

interface QuerySeen {
  readonly request: HttpRequest;
  /** What `ctx.query` is (undefined until first read or set). */
  query: Record<string, unknown> | undefined;
  /** The parse it was copied from. */
  original: unknown;
}

/** A Koa context with what Strapi adds to it (`ctx.send`, `ctx.badRequest`, …). */
export type ProjectContext = Context;

/**
 * The Koa application whose contexts project code receives: Koa's own request, response and
 * context (status defaults, the body setter, headers, cookies signed with `server.app.keys`,
 * `ctx.throw`), plus Strapi's response helpers: one per 4xx/5xx status (`ctx.badRequest(message,
 * details)`, `ctx.notFound()`, …) that set Strapi's error envelope, and `send`, `created`,
 * `deleted`. Nothing is listened on: contexts are made per request from Cairn's HttpRequest.
 */
export function createKoaApp(keys: readonly string[]): Koa {
  const app = new Koa();
  app.keys = [...keys];
  const response = app.response as unknown as Record<string, unknown>;
  const context = app.context as unknown as Record<string, unknown>;
  for (const [code, phrase] of Object.entries(STATUS_CODES)) {
    const status = Number(code);
    if (!phrase || status < 400 || status >= 600) continue;
    const name = camelCase(phrase);
    response[name] = function (this: Koa.Response, message: unknown = phrase, details: unknown = {}) {
      this.status = status;
      this.body = errorBody(status, phrase, message, details);
    };
    context[name] = function (this: Context, ...args: unknown[]) {
      return (this.response as unknown as Record<string, (...a: unknown[]) => void>)[name]!(...args);
    };
  }
  const helpers: Record<string, (this: Koa.Response, ...args: never[]) => void> = {
    send(this: Koa.Response, data: unknown, status = 200) {
      this.status = status;
      this.body = data;
    },
    created(this: Koa.Response, data: unknown) {
      this.status = 201;
      this.body = data;
    },
    deleted(this: Koa.Response, data: unknown) {
      if (data === undefined || data === null) this.status = 204;
      else {
        this.status = 200;
        this.body = data;
      }
    },
  };
  for (const [name, helper] of Object.entries(helpers)) {
    response[name] = helper;
    context[name] = function (this: Context, ...args: unknown[]) {
      return (helper as (...a: unknown[]) => void).apply(this.response, args);
    };
  }
  // `ctx.request.query` (and `ctx.query`, which Koa's context delegates to it): the request's
  // query as Strapi parses it (qs), one object for the whole request, so a middleware's changes
  // reach the action.
  Object.defineProperty(app.request, 'query', {
    get(this: Record<symbol, QuerySeen>) {
      const seen = this[QUERY_SEEN]!;
      if (seen.query === undefined) {
        const { copy, original } = queryCopy(seen.request);
        seen.query = copy;
        seen.original = original;
      }
      return seen.query;
    },
    set(this: Record<symbol, QuerySeen>, value: Record<string, unknown>) {
      this[QUERY_SEEN]!.query = value;
    },
    configurable: true,
  });
  return app;
}

/**
 * A context for `request`, authenticated as `principal`: `ctx.query` is the request's query as
 * Strapi parses it (qs), the same object for the whole request so a middleware's changes reach
 * the action; `ctx.request.body` the parsed body; `ctx.params` the route's parameters.
 */
export function createContext(
  app: Koa,
  request: HttpRequest,
  params: Readonly<Record<string, string>>,
  principal: Principal,
): ProjectContext {
  // What Koa's request reads of Node's (the body is parsed already, the socket is Cairn's to write).
  const req = {
    method: request.method,
    url: request.rawQuery ? `${request.path}?${request.rawQuery}` : request.path,
    headers: request.headers as IncomingMessage['headers'],
    socket: { remoteAddress: request.ip, encrypted: request.secure },
    httpVersionMajor: 1,
    httpVersionMinor: 1,
  } as unknown as IncomingMessage;
  const res = new ResponseState() as unknown as ServerResponse;
  const ctx = app.createContext(req, res);
  const seen: QuerySeen = { request, query: undefined, original: undefined };
  (ctx.request as unknown as Record<symbol, QuerySeen>)[QUERY_SEEN] = seen;
  (ctx.request as { body?: unknown }).body = request.body;
  ctx.params = { ...params };
  (ctx.request as unknown as { params: unknown }).params = ctx.params;
  (ctx as unknown as Record<symbol, unknown>)[PRINCIPAL] = principal;
  return ctx;
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
  const seen = (ctx.request as unknown as Record<symbol, QuerySeen>)[QUERY_SEEN] as QuerySeen;
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
 * What Koa's response writes to in place of Node's ServerResponse: the status and the headers,
 * kept until the chain has run (Cairn's server writes the answer, not Koa). An event emitter, as
 * Koa listens to it for a stream body (read whole by responseOf).
 */
class ResponseState extends EventEmitter {
  statusCode = 404;
  statusMessage = '';
  readonly headersSent = false;
  readonly writableEnded = false;
  readonly finished = false;
  readonly socket = null;
  private readonly headers = new Map<string, { name: string; value: number | string | string[] }>();

  getHeader(name: string): number | string | string[] | undefined {
    return this.headers.get(name.toLowerCase())?.value;
  }
  getHeaders(): Record<string, number | string | string[]> {
    const all: Record<string, number | string | string[]> = Object.create(null);
    for (const [key, { value }] of this.headers) all[key] = value;
    return all;
  }
  getHeaderNames(): string[] {
    return [...this.headers.keys()];
  }
  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }
  setHeader(name: string, value: number | string | string[]): this {
    this.headers.set(name.toLowerCase(), { name, value });
    return this;
  }
  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }
}

/**
 * What the context holds once the chain ran → Cairn's response: status, the headers set on it,
 * and the body (an object as JSON, a string or Buffer as it is with its type). Koa's 404 default
 * with no body is Strapi's `Not Found` envelope.
 */
export async function responseOf(ctx: ProjectContext): Promise<HttpResponse> {
  const headers = headersOf(ctx);
  const status = ctx.status;
  let body: unknown = ctx.body;
  if (body === undefined || body === null) {
    if (status === 404 && !(ctx.response as unknown as { _explicitStatus?: boolean })._explicitStatus) {
      const envelope = toErrorEnvelope({ statusCode: 404, message: 'Not Found' });
      return { status: 404, body: envelope.body, headers: headers as Record<string, string> };
    }
    return { status, headers: headers as Record<string, string> };
  }
  if (isReadable(body)) body = await readAll(body);
  const type = ctx.response.get('Content-Type') || 'application/json; charset=utf-8';
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    return { status, headers: headers as Record<string, string>, raw: { contentType: type, content: body } };
  }
  return {
    status,
    headers: headers as Record<string, string>,
    raw: { contentType: type, content: JSON.stringify(body) },
  };
}

/** Strapi's envelope of an http-errors error: its class name is the phrase as an identifier, `Error` appended. */
/** The headers set on the context's response, but its body's type and length (the server sets those). */
export function headersOf(ctx: ProjectContext): Record<string, string> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (value === undefined || name === 'content-type' || name === 'content-length') continue;
    headers[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return headers as Record<string, string>;
}

function errorBody(status: number, phrase: string, message: unknown, details: unknown): unknown {
  const identifier = phrase
    .split(' ')
    .map((word) => word.slice(0, 1).toUpperCase() + word.slice(1))
    .join('')
    .replace(/[^ _0-9a-z]/gi, '');
  const name = identifier.endsWith('Error') ? identifier : `${identifier}Error`;
  return {
    data: null,
    error: { status, name, message: typeof message === 'string' ? message : phrase, details: details ?? {} },
  };
}

function camelCase(phrase: string): string {
  const words = phrase
    .replace(/[^A-Za-z0-9 ]/g, ' ')
    .trim()
    .split(/\s+/);
  return words
    .map((word, i) => (i === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
}

function isReadable(value: unknown): value is AsyncIterable<Buffer | string> {
  return typeof value === 'object' && value !== null && typeof (value as { pipe?: unknown }).pipe === 'function';
}

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
