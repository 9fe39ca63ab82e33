import { ApplicationError } from '../core/errors.js';

/** Strapi's error body: `{ data: null, error: { status, name, message, details? } }`. */
export interface ErrorEnvelope {
  readonly status: number;
  readonly body: {
    readonly data: null;
    readonly error: {
      readonly status: number;
      readonly name: string;
      readonly message: string;
      readonly details?: unknown;
    };
  };
  /** True for failures that are the server's fault (logged with their stack). */
  readonly internal: boolean;
}

/** http-errors class names, which Koa (and so Strapi) reports for plain HTTP errors. */
const HTTP_ERROR_NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  406: 'NotAcceptableError',
  408: 'RequestTimeoutError',
  411: 'LengthRequiredError',
  413: 'PayloadTooLargeError',
  414: 'URITooLongError',
  415: 'UnsupportedMediaTypeError',
  429: 'TooManyRequestsError',
  431: 'RequestHeaderFieldsTooLargeError',
};

/**
 * The one place errors become responses. Catalogue errors keep their status, name, message and
 * details; the body parser's own 4xx errors keep their status (413 as Strapi words it); anything
 * else is an internal error: 500 with a generic message, never the cause.
 */
export function toErrorEnvelope(error: unknown): ErrorEnvelope {
  if (error instanceof ApplicationError) {
    const details = error.details === undefined ? {} : { details: error.details };
    return envelope(error.status, error.name, error.message, details, false);
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = (error as { code?: unknown }).code;
    if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return envelope(413, 'PayloadTooLargeError', 'request entity too large', {}, false);
    }
    const message = error instanceof Error ? error.message : 'Bad Request';
    return envelope(status, HTTP_ERROR_NAMES[status] ?? 'BadRequestError', message, { details: {} }, false);
  }
  return envelope(500, 'InternalServerError', 'Internal Server Error', {}, true);
}

function envelope(
  status: number,
  name: string,
  message: string,
  details: { details?: unknown },
  internal: boolean,
): ErrorEnvelope {
  return { status, body: { data: null, error: { status, name, message, ...details } }, internal };
}
