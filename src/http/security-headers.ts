import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

type Obj = Record<string, unknown>;

/** Sets the security headers of one response (before it is written). */
type ApplySecurityHeaders = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Compiles `strapi::security`'s helmet options once, at start: the headers Strapi's security
 * middleware sends (Strapi runs koa-helmet, i.e. helmet, with the same options). One difference
 * is smoothed away: helmet 6, Strapi's, writes the configured CSP directives first and then the
 * defaults it adds; helmet 8 the other way round. The directives are put in helmet 6's order
 * here, so the header reads as Strapi's does. Options helmet refuses (an unquoted `self`, an
 * unknown referrer policy) stop the start with a ProjectError naming config/middlewares.
 */
export function compileSecurityHeaders(options: Readonly<Obj>): ApplySecurityHeaders {
  const csp = options.contentSecurityPolicy;
  let middleware: ReturnType<typeof helmet>;
  try {
    middleware = helmet({
      ...options,
      contentSecurityPolicy: isRecord(csp) ? inStrapiOrder(csp) : csp,
    } as HelmetOptions);
  } catch (error) {
    throw new ProjectError(
      `config/middlewares: strapi::security: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return (request, response) =>
    middleware(request, response, (error?: unknown) => {
      if (error) throw error;
    });
}

/** CSP options with `useDefaults` → the configured directives, then helmet's defaults not configured or nulled (helmet 6's order). */
function inStrapiOrder(csp: Obj): Obj {
  if (csp.useDefaults === false) return csp;
  const directives: Obj = {};
  const removed = new Set<string>();
  for (const [name, value] of Object.entries(isRecord(csp.directives) ? csp.directives : {})) {
    const key = name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    if (value === null) removed.add(key);
    else directives[key] = value;
  }
  for (const [key, value] of Object.entries(helmet.contentSecurityPolicy.getDefaultDirectives())) {
    if (!(key in directives) && !removed.has(key)) directives[key] = value;
  }
  return { ...csp, useDefaults: false, directives };
}
