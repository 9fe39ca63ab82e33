/**
 * The error catalogue. Every failure that reaches a client is one of these classes; `http/` turns
 * them into Strapi's envelope `{ data: null, error: { status, name, message, details? } }` in one
 * place. Names, default messages and statuses mirror Strapi 5 (`@strapi/utils` errors and the
 * http-errors names Koa produces), so clients that switch on `error.name` keep working.
 *
 * `details` is `undefined` for the errors Strapi sends without a `details` key (body syntax errors,
 * 413 from the body parser, 500): pass `null` to the constructor for those.
 */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/** Base class: a 4xx/5xx that is safe to show to the client as-is. */
export class ApplicationError extends Error {
  readonly status: number = 400;
  readonly details: ErrorDetails | undefined;

  constructor(message = 'An application error occurred', details: ErrorDetails | null = {}) {
    super(message);
    this.name = 'ApplicationError';
    this.details = details ?? undefined;
  }
}

/** 400, input that does not satisfy the content model or the query language. */
export class ValidationError extends ApplicationError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'ValidationError';
  }
}

/** 400, bad `pagination[...]` combinations. */
export class PaginationError extends ApplicationError {
  constructor(message = 'Invalid pagination', details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'PaginationError';
  }
}

/** 400 with the http-errors name Koa uses for `ctx.badRequest()`. */
export class BadRequestError extends ApplicationError {
  constructor(message = 'Bad Request', details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'BadRequestError';
  }
}

/** 400 for a request body that is not valid JSON; Strapi sends no `details` key. */
export class BodySyntaxError extends ApplicationError {
  constructor(message: string) {
    super(message, null);
    this.name = 'SyntaxError';
  }
}

/** 401: bad or expired credentials. */
export class UnauthorizedError extends ApplicationError {
  override readonly status = 401;
  constructor(message = 'Unauthorized', details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'UnauthorizedError';
  }
}

/** 403: the principal may not perform the action. */
export class ForbiddenError extends ApplicationError {
  override readonly status = 403;
  constructor(message = 'Forbidden', details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'ForbiddenError';
  }
}

/** 403 from a route's policy (the content manager's for a model it does not show): Strapi's `PolicyError`. */
export class PolicyError extends ApplicationError {
  override readonly status = 403;
  constructor(message = 'Policy Failed', details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'PolicyError';
  }
}

/** 404. Routes and unknown documents answer with Koa's `Not Found` message, as Strapi does. */
export class NotFoundError extends ApplicationError {
  override readonly status = 404;
  constructor(message = 'Not Found', details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'NotFoundError';
  }
}

/** 413: request body over the configured limit. */
export class PayloadTooLargeError extends ApplicationError {
  override readonly status = 413;
  constructor(message = 'Entity too large', details: ErrorDetails | null = {}) {
    super(message, details);
    this.name = 'PayloadTooLargeError';
  }
}

/** 429: rate limited. */
export class RateLimitError extends ApplicationError {
  override readonly status = 429;
  constructor(message = 'Too many requests, please try again later.', details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'RateLimitError';
  }
}

/** 501: a feature the server does not provide (yet). */
export class NotImplementedError extends ApplicationError {
  override readonly status = 501;
  constructor(message = 'This feature is not implemented yet', details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'NotImplementedError';
  }
}

/** 503: the server cannot do the work now (the database is held by another process); the client may retry. */
export class ServiceUnavailableError extends ApplicationError {
  override readonly status = 503;
  constructor(message = 'Service Unavailable', details: ErrorDetails = {}) {
    super(message, details);
    this.name = 'ServiceUnavailableError';
  }
}

/** One entry of `details.errors` in a yup-style validation error. */
export interface FieldError {
  readonly path: readonly string[];
  readonly message: string;
  readonly name: 'ValidationError';
  /** Absent (not null) when the offending value was `undefined`, as yup reports it. */
  readonly value?: unknown;
}

/**
 * Builds the ValidationError Strapi answers for failed attribute validation: `details.errors`
 * lists every problem; the message is the only problem's message or `N errors occurred`.
 */
export function fieldValidationError(errors: readonly FieldError[]): ValidationError {
  const message = errors.length === 1 ? (errors[0]?.message ?? '') : `${errors.length} errors occurred`;
  return new ValidationError(message, { errors });
}

/** Thrown for a configuration or project problem found at start; the CLI prints it and exits 1. */
export class ProjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectError';
  }
}
