import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerFactory,
} from 'fastify';
import type { Logger } from 'pino';
import type { CorsConfig } from '../config/config.js';
import { NotFoundError } from '../core/errors.js';
import { registerBodyParsers } from './body-parsers.js';
import { toErrorEnvelope } from './error-envelope.js';
import { httpRequest, type HttpRequest, type HttpResponse, type Route, type StreamBody } from './http-types.js';
import { parseQueryString } from './query-string.js';
import { multipartParts } from './multipart-parts.js';
import { adminPanelHandler, type AdminPanelHandler } from './admin-panel-files.js';
import { deferredTable, underPrefixes, type DeferredRoutes, type DeferredTable } from './deferred-routes.js';
import { registerPublicFiles } from './public-files.js';
import { compileSecurityHeaders } from './security-headers.js';
import { otherMethodsOf } from './other-methods.js';
import { redactUrl } from './redact-url.js';
import { ALL_METHODS, routesByPath } from './route-paths.js';

export interface HttpServerOptions {
  readonly bodyLimit: number;
  readonly cors: CorsConfig;
  /** One `info` line per request; internal errors at `error`. */
  readonly logger: Logger;
  /** Trust `X-Forwarded-*` headers for the client address (`server.proxy`). */
  readonly trustProxy?: boolean;
  /** A folder served as static files at `/` (the project's `public/`), when given. */
  readonly publicDir?: string;
  /** helmet's options for the security headers of every response (`strapi::security`); none when absent. */
  readonly securityHeaders?: Readonly<Record<string, unknown>> | null;
  /** `X-Powered-By` on every response (`strapi::poweredBy`); none when absent. */
  readonly poweredBy?: string | null;
  /** The admin panel: served at `url` from the project's build (or a page saying how to get one); absent: not served. */
  readonly adminPanel?: { readonly url: string; readonly buildDir: string | null } | null;
  /** Routes built on the first request under their prefixes (the admin API), after `routes`; none when absent. */
  readonly deferred?: DeferredRoutes | null;
  /**
   * Fastify's `serverFactory`: who creates the Node server Fastify's request handler serves on
   * (`cairn develop` captures the handler and serves it from a server of its own); absent: Fastify's.
   */
  readonly serverFactory?: FastifyServerFactory;
}

/** Fastify's `request.query`: Cairn's routes read HttpRequest's, parsed on first use. */
const NOT_PARSED: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Builds the Fastify server for a list of routes. Routes sharing a path are served by one Fastify
 * route for their methods (and HEAD where GET is served) that dispatches on the method; a wrong
 * method on a known path answers 405 with `Allow` (text/plain, as Koa's router does) and an
 * unknown path 404 in Strapi's envelope. Trailing slashes are ignored; HEAD is answered like GET
 * without a body. Deferred routes are answered the same way, by one Fastify route per prefix
 * that looks them up (the admin panel's files, when the panel's URL is such a prefix, after them).
 */
export async function createHttpServer(routes: readonly Route[], options: HttpServerOptions): Promise<FastifyInstance> {
  const applySecurityHeaders = options.securityHeaders ? compileSecurityHeaders(options.securityHeaders) : null;
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit,
    routerOptions: {
      ignoreTrailingSlash: true,
      // Parsed by toHttpRequest when a route reads it: a content-API GET whose query string it
      // has parsed before (api/parsed-queries.ts) never does.
      querystringParser: () => NOT_PARSED,
    },
    exposeHeadRoutes: false,
    trustProxy: options.trustProxy === true,
    ...(options.serverFactory && { serverFactory: options.serverFactory }),
    // Routes declare no JSON schemas (queries and bodies are checked by Cairn's own validators),
    // so Fastify's Ajv and fast-json-stringify compilers are never needed: not loading them saves
    // start-up time and memory.
    schemaController: {
      compilersFactory: { buildValidator: unusedSchemaCompiler, buildSerializer: unusedSchemaCompiler },
    },
    // Malformed URLs and similar framework-level failures get the same envelope as everything else.
    frameworkErrors: (error, request, reply) => {
      applySecurityHeaders?.(request.raw, reply.raw);
      return sendError(reply, request, error, options.logger);
    },
  });
  registerBodyParsers(app);
  // Before CORS, as Strapi orders its middlewares: a preflight answer carries the headers too.
  if (applySecurityHeaders) {
    app.addHook('onRequest', (request, reply, done) => {
      applySecurityHeaders(request.raw, reply.raw);
      done();
    });
  }
  // Multipart bodies are streamed by the route that reads them (uploads), never buffered here.
  await app.register(multipart, { throwFileSizeLimit: true });
  await app.register(cors, {
    origin: options.cors.origin === '*' ? true : [...options.cors.origin],
    credentials: options.cors.credentials,
    methods: [...options.cors.methods],
    allowedHeaders: [...options.cors.headers],
    ...(options.cors.expose.length > 0 ? { exposedHeaders: [...options.cors.expose] } : {}),
    maxAge: options.cors.maxAge,
    optionsSuccessStatus: 204,
  });
  // After CORS, as in Strapi's list: a preflight, answered by CORS, says nothing of the server.
  const poweredBy = options.poweredBy;
  if (poweredBy) {
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('x-powered-by', poweredBy);
      done();
    });
  }

  if (options.publicDir) await registerPublicFiles(app, options.publicDir);
  const panel = options.adminPanel
    ? {
        url: options.adminPanel.url,
        handle: await adminPanelHandler(app, options.adminPanel.url, options.adminPanel.buildDir),
      }
    : null;
  app.addHook('onResponse', (request, reply, done) => {
    options.logger.info(
      `${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`,
    );
    done();
  });
  app.setErrorHandler((error, request, reply) => sendError(reply, request, error, options.logger));

  // A route of the start's own under a deferred prefix (the REST API's prefix set to `/admin/api`,
  // say) would shadow deferred ones or be shadowed by them: the deferred routes are then built now.
  let deferredRoutes = options.deferred ?? null;
  let served = routes;
  const prefixes = deferredRoutes?.prefixes ?? [];
  if (deferredRoutes && routes.some((route) => underPrefixes(route.path, prefixes))) {
    served = [...routes, ...(await deferredRoutes.load())];
    deferredRoutes = null;
  }
  const byPath = routesByPath(served);
  for (const [path, { methods }] of byPath) {
    app.route({
      method: ALL_METHODS.filter((m) => methods.has(m)),
      url: path,
      handler: async (request, reply) => {
        const response = await (methods.get(request.method) as Route).handle(toHttpRequest(request));
        return sendResponse(reply, response);
      },
    });
  }
  const deferred = deferredRoutes ? deferredTable(deferredRoutes) : null;
  if (deferred) {
    for (const prefix of deferred.prefixes) {
      const handler = deferredHandler(deferred, panel?.url === prefix ? panel.handle : null);
      for (const url of [prefix, `${prefix}/*`]) app.route({ method: [...ALL_METHODS], url, handler });
    }
  }
  if (panel && !deferred?.prefixes.includes(panel.url)) {
    app.get(panel.url, panel.handle);
    app.get(`${panel.url}/*`, panel.handle);
  }
  const otherMethods = otherMethodsOf(byPath);
  app.setNotFoundHandler((request, reply) => {
    const allow = otherMethods(request.url) ?? deferred?.allowOf(request.url);
    if (allow === undefined) return sendError(reply, request, new NotFoundError(), options.logger);
    return reply.code(405).header('allow', allow).type('text/plain; charset=utf-8').send('Method Not Allowed');
  });
  return app;
}

/**
 * A Fastify handler for a deferred prefix: the deferred route serving the request, else the
 * admin panel for a GET under the panel's URL, else the not-found handler (a 405 or a 404).
 */
function deferredHandler(table: DeferredTable, fallback: AdminPanelHandler | null) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
    const found = await table.match(request.method, request.url);
    if (found) return sendResponse(reply, await found.route.handle(toHttpRequest(request, found.params)));
    if (fallback && request.method === 'GET') return fallback(request, reply);
    return reply.callNotFound();
  };
}

function unusedSchemaCompiler(): never {
  throw new Error('Cairn routes declare no Fastify schemas');
}

function toHttpRequest(
  request: FastifyRequest,
  params: Readonly<Record<string, string>> = request.params as Record<string, string>,
): HttpRequest {
  const url = request.url;
  const mark = url.indexOf('?');
  const rawQuery = mark < 0 ? '' : url.slice(mark + 1);
  return httpRequest(
    {
      method: request.method,
      path: mark < 0 ? url : url.slice(0, mark),
      rawQuery,
      params,
      body: request.body,
      headers: request.headers,
      ip: request.ip,
      secure: request.protocol === 'https',
      multipart: request.isMultipart() ? (limits) => multipartParts(request, limits) : null,
    },
    () => parseQueryString(rawQuery),
  );
}

function sendResponse(reply: FastifyReply, response: HttpResponse): FastifyReply {
  reply.code(response.status);
  if (response.headers) {
    // A route's `Vary` adds to the one set before it (CORS' `Origin`) instead of replacing it.
    const vary = reply.getHeader('vary');
    const { vary: more, ...headers } = response.headers;
    reply.headers(headers);
    if (more !== undefined) reply.header('vary', vary === undefined ? more : `${String(vary)}, ${more}`);
  }
  if (response.html !== undefined) return reply.type('text/html; charset=utf-8').send(response.html);
  if (response.raw !== undefined) return reply.type(response.raw.contentType).send(response.raw.content);
  if (response.stream !== undefined) return sendStream(reply, response.stream);
  if (response.body === undefined) return reply.send();
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(response.body));
}

/** How long a stream the server ended may take to flush its last bytes before its socket is cut. */
const STREAM_FLUSH_GRACE_MS = 30_000;

/**
 * A streamed body, written straight to the socket (the reply is hijacked, with the headers set so
 * far: CORS, security, the route's). Ends once, from either side; the connection is then closed,
 * never reused, so that no stream's socket holds the server's close, and cut when a client that
 * does not read leaves the last bytes unsent past a grace period (they would be held for good).
 */
function sendStream(reply: FastifyReply, stream: StreamBody): FastifyReply {
  reply.type(stream.contentType);
  if (reply.request.method === 'HEAD') return reply.send();
  reply.hijack();
  const raw = reply.raw;
  // Said in the headers too: a client that took the socket for keep-alive would send its next
  // request on it as the server closes it ("other side closed").
  reply.header('connection', 'close');
  raw.writeHead(reply.statusCode, reply.getHeaders() as Record<string, string | string[] | number>);
  const listeners: (() => void)[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    if (!raw.writableEnded) raw.end();
    const socket = raw.socket;
    if (socket && !socket.destroyed) {
      socket.destroySoon();
      const cut = setTimeout(() => socket.destroy(), STREAM_FLUSH_GRACE_MS);
      cut.unref();
      socket.once('close', () => clearTimeout(cut));
    }
    for (const listener of listeners.splice(0)) listener();
  };
  raw.once('close', close);
  stream.start({
    write: (chunk) => (closed ? false : raw.write(chunk)),
    onDrain: (listener) => raw.on('drain', listener),
    end: close,
    onClose: (listener) => {
      if (closed) listener();
      else listeners.push(listener);
    },
  });
  return reply;
}

function sendError(reply: FastifyReply, request: FastifyRequest, error: unknown, logger: Logger): FastifyReply {
  const envelope = toErrorEnvelope(error);
  if (envelope.internal)
    logger.error({ err: error, method: request.method, url: redactUrl(request.url) }, 'request failed');
  return reply.code(envelope.status).type('application/json; charset=utf-8').send(JSON.stringify(envelope.body));
}
