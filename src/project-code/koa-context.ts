import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import Koa, { type Context } from 'koa';
import type { Principal } from '../access/principal.js';
import { toErrorEnvelope } from '../http/error-envelope.js';
import type { HttpRequest, HttpResponse } from '../http/http-types.js';
import { attachRequest, querySeenOf, type ProjectContext } from './context-state.js';
import { queryCopy } from './query-copies.js';

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
    get(this: object) {
      const seen = querySeenOf(this);
      if (seen.query === undefined) {
        const { copy, original } = queryCopy(seen.request);
        seen.query = copy;
        seen.original = original;
      }
      return seen.query;
    },
    set(this: object, value: Record<string, unknown>) {
      querySeenOf(this).query = value;
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
  attachRequest(ctx, request, principal);
  (ctx.request as { body?: unknown }).body = request.body;
  ctx.params = { ...params };
  (ctx.request as unknown as { params: unknown }).params = ctx.params;
  return ctx;
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
