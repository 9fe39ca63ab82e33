import type { AdminIdentity } from '../access/principal.js';
import type { HttpRequest, HttpResponse, Route } from '../http/http-types.js';

/**
 * One route of the admin panel's API (`/admin/*`, `/content-manager/*`, `/upload/*`, `/i18n/*`).
 * `auth: 'admin'` routes run for a signed-in admin user (admin-guard.ts answers 401 before the
 * handler otherwise), and `permission` names the admin action the user's roles must grant;
 * `auth: 'public'` routes run for anyone (init, login, register-admin…).
 */
export type AdminRoute =
  | {
      readonly method: Route['method'];
      readonly path: string;
      readonly auth: 'public';
      readonly handle: (request: HttpRequest) => Promise<HttpResponse>;
    }
  | {
      readonly method: Route['method'];
      readonly path: string;
      readonly auth: 'admin';
      /** The admin action (with its subject when it has one) the user must hold; none: any signed-in admin. */
      readonly permission?: { readonly action: string; readonly subject?: string };
      readonly handle: (request: HttpRequest, admin: AdminIdentity) => Promise<HttpResponse>;
    };

/** A `{ data }` answer with status 200. */
export function ok(data: unknown): HttpResponse {
  return { status: 200, body: { data } };
}
