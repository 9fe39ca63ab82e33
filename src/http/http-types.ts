/**
 * The HTTP boundary in Cairn's own terms: route modules (api/) receive an HttpRequest and return
 * an HttpResponse, and never see Fastify. http/ knows no content.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** One part of a `multipart/form-data` body, in body order. A file part must be read or drained. */
export type MultipartPart =
  | { readonly kind: 'field'; readonly name: string; readonly value: string }
  | {
      readonly kind: 'file';
      readonly name: string;
      readonly filename: string;
      readonly mimetype: string;
      readonly content: AsyncIterable<Buffer>;
    };

/** Limits for reading a multipart body; a file over `fileSize` bytes makes its stream fail with PayloadTooLargeError. */
export interface MultipartLimits {
  readonly fileSize: number;
  readonly files: number;
  readonly fields: number;
}

export interface HttpRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  /** Query string parsed with qs (Strapi's options). */
  readonly query: Readonly<Record<string, unknown>>;
  /**
   * The query string as received (after `?`, '' without one), when the server knows it: what
   * caches of what a query parses to are keyed by.
   */
  readonly rawQuery?: string;
  /** Parsed body: JSON or urlencoded object; undefined when absent or not parsed. */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The client's address (from `X-Forwarded-For` only when `server.proxy` trusts it). */
  readonly ip: string;
  /** Whether the request came over HTTPS: TLS, or `X-Forwarded-Proto: https` when `server.proxy` trusts it. */
  readonly secure: boolean;
  /** The parts of a multipart body, streamed (null when the body is not multipart). */
  readonly multipart: ((limits: MultipartLimits) => AsyncIterable<MultipartPart>) | null;
}

export interface HttpResponse {
  readonly status: number;
  /** JSON body; absent for 204 and 304. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** An HTML page sent instead of a JSON body (`text/html`). */
  readonly html?: string;
  /** A body sent as it is (a static asset, a JSON text serialized once) with its content type. */
  readonly raw?: { readonly contentType: string; readonly content: string | Buffer };
  /** A body written over time (Server-Sent Events): the status and headers first, then `start`. */
  readonly stream?: StreamBody;
}

/** A response body written in chunks for as long as both sides keep it open. */
export interface StreamBody {
  readonly contentType: string;
  /** Called once the response is under way (never for HEAD): write to `sink` until it closes. */
  start(sink: StreamSink): void;
}

/** Where a stream's chunks go. */
export interface StreamSink {
  /**
   * Hands a chunk to the connection (ignored once closed). False when the connection's buffer is
   * past its mark (the client reads slower than it is written to): wait for `onDrain` to write more.
   */
  write(chunk: string): boolean;
  /** Called each time the connection's buffer drained after a write answered false. */
  onDrain(listener: () => void): void;
  /** Ends the response (the server's side closing). */
  end(): void;
  /** Called once when the stream ends, from either side: the client went away, `end`, or the server closed. */
  onClose(listener: () => void): void;
}

export interface Route {
  readonly method: HttpMethod;
  /** Path pattern with `:param` segments, e.g. `/api/articles/:documentId`. */
  readonly path: string;
  /** The permission action the route checks, for `routes:list`. */
  readonly action?: string;
  readonly handle: (request: HttpRequest) => Promise<HttpResponse>;
}

/** An HttpRequest's fields but its query, which is parsed (or found) when first read. */
export type HttpRequestFields = Omit<HttpRequest, 'query'>;

/**
 * An HttpRequest whose `query` is `parseQuery()`'s value, asked for on first read (a route that
 * never looks at it costs no parse). Every request is made here, so all share one object shape:
 * the code reading them stays monomorphic.
 */
export function httpRequest(
  fields: HttpRequestFields,
  parseQuery: () => Readonly<Record<string, unknown>>,
): HttpRequest {
  let query: Readonly<Record<string, unknown>> | undefined;
  return {
    method: fields.method,
    path: fields.path,
    params: fields.params,
    get query() {
      query ??= parseQuery();
      return query;
    },
    rawQuery: fields.rawQuery,
    body: fields.body,
    headers: fields.headers,
    ip: fields.ip,
    secure: fields.secure,
    multipart: fields.multipart,
  };
}

/**
 * `request` with `fields` in place of its own, the others read from it: its query is read (and
 * so parsed) only if the new request's is, unless `fields` gives one.
 */
export function requestWith(request: HttpRequest, fields: Partial<HttpRequest>): HttpRequest {
  const { query, ...given } = fields;
  const { method, path, params, rawQuery, body, headers, ip, secure, multipart } = request;
  return httpRequest(
    { method, path, params, rawQuery, body, headers, ip, secure, multipart, ...given },
    query !== undefined ? () => query : () => request.query,
  );
}

/** Reads a single header value. */
export function header(request: HttpRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads one cookie of the `Cookie` header (undefined when absent). */
export function cookie(request: HttpRequest, name: string): string | undefined {
  const raw = header(request, 'cookie');
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}
