import { ApplicationError, RateLimitError } from '../core/errors.js';
import { hashPassword, verifyPassword } from '../core/password-hash.js';
import type { Database } from '../db/database.js';
import { cookie, header, type HttpResponse } from '../http/http-types.js';
import { rateLimitKey, type RateLimitCounter } from '../users-permissions/rate-limiter.js';
import { ADMIN_REFRESH_COOKIE, type AdminAuth } from './admin-auth.js';
import { checkAdminBody } from './admin-body-checks.js';
import { ok, type AdminRoute } from './admin-route.js';
import { SUPER_ADMIN_CODE } from './admin-roles.js';
import type { AdminRole, AdminUser, AdminUserStore } from './admin-users.js';
import type { AdminUserLifecycles } from './admin-user-lifecycles.js';

/** An admin account as the admin API shows it (no password, no tokens). */
export function adminUserView(user: AdminUser, roles?: readonly AdminRole[]): Record<string, unknown> {
  return {
    id: user.id,
    documentId: user.documentId,
    firstname: user.firstname,
    lastname: user.lastname,
    username: user.username,
    email: user.email,
    isActive: user.isActive,
    blocked: user.blocked,
    preferedLanguage: user.preferedLanguage,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    publishedAt: user.publishedAt,
    locale: null,
    ...(roles
      ? {
          roles: roles.map((role) => ({
            id: role.id,
            name: role.name,
            description: role.description,
            code: role.code,
          })),
        }
      : {}),
  };
}

/** What the admin's own account routes need. */
export interface AdminAuthRouteDeps {
  readonly db: Database;
  readonly auth: AdminAuth;
  readonly users: AdminUserStore;
  /** The project's `admin::user` lifecycles around the first admin's creation. */
  readonly lifecycles: AdminUserLifecycles;
  /** Admin logins: 5 tries per 5 minutes per email and address, by default. */
  readonly limiter: RateLimitCounter;
}

const signedIn = (data: Record<string, unknown>, setCookie: string): HttpResponse => ({
  status: 200,
  body: { data },
  headers: { 'set-cookie': setCookie },
});

/**
 * The admin panel's account routes: `/admin/init` (is there an admin yet), `register-admin` (the
 * first Super Admin, on an empty database only), `login` (rate limited), `access-token` (a new
 * access token for the refresh cookie), `logout`, and the signed-in user's profile and permissions.
 */
export function adminAuthRoutes(deps: AdminAuthRouteDeps): AdminRoute[] {
  const { auth, users, db } = deps;
  return [
    {
      method: 'GET',
      path: '/admin/init',
      auth: 'public',
      handle: async () => ok({ uuid: false, hasAdmin: (await users.count()) > 0, menuLogo: null, authLogo: null }),
    },
    {
      method: 'POST',
      path: '/admin/register-admin',
      auth: 'public',
      handle: async (request) => {
        const body = checkAdminBody(request.body, {
          email: { kind: 'email', required: true },
          password: { kind: 'password', required: true },
          firstname: { kind: 'string', required: true },
          lastname: { kind: 'string' },
        });
        const email = String(body.email);
        const passwordHash = await hashPassword(String(body.password));
        const userId = await db.transaction(async (tx) => {
          await tx.lock(['admin-register']);
          if ((await users.count(tx)) > 0) throw new ApplicationError('You cannot register a new super admin');
          const superAdmin = (await users.roles(tx)).find((role) => role.code === SUPER_ADMIN_CODE);
          if (!superAdmin)
            throw new ApplicationError('The Super Admin role is missing; restart the server to recreate it');
          const firstname = String(body.firstname);
          const lastname = typeof body.lastname === 'string' ? body.lastname : null;
          // What Strapi's admin service hands its Query Engine for the first admin.
          const data = {
            roles: [superAdmin.id],
            isActive: true,
            username: null,
            registrationToken: null,
            firstname,
            lastname,
            email,
            password: passwordHash,
          };
          return deps.lifecycles.create(tx, data, () =>
            users.create(tx, { email, firstname, lastname, passwordHash, roleIds: [superAdmin.id] }),
          );
        });
        const user = await users.byId(userId);
        if (!user) throw new Error('The registered admin cannot be read back');
        const session = await auth.signIn(userId, {
          ...deviceOf(request.body),
          userAgent: header(request, 'user-agent'),
          https: request.secure,
        });
        return signedIn(
          {
            token: session.accessToken,
            accessToken: session.accessToken,
            user: adminUserView(user, await users.rolesOf(userId)),
          },
          session.setCookie,
        );
      },
    },
    {
      method: 'POST',
      path: '/admin/login',
      auth: 'public',
      handle: async (request) => {
        const email = (request.body as { email?: unknown } | undefined)?.email;
        const { limited, headers } = await deps.limiter.hit(rateLimitKey('/admin/login', request.ip, email));
        if (limited) throw new RateLimitError();
        const body = checkAdminBody(request.body, {
          email: { kind: 'email', required: true },
          password: { kind: 'string', required: true },
          rememberMe: { kind: 'boolean' },
          deviceId: { kind: 'uuid' },
        });
        const user = await users.byEmail(String(body.email));
        const valid = await verifyPassword(String(body.password), user?.passwordHash ?? null);
        if (!user || !valid) throw new ApplicationError('Invalid credentials');
        if (user.blocked || !user.isActive) throw new ApplicationError('User not active');
        const session = await auth.signIn(user.id, {
          ...deviceOf(body),
          userAgent: header(request, 'user-agent'),
          https: request.secure,
        });
        const response = signedIn(
          { token: session.accessToken, accessToken: session.accessToken, user: adminUserView(user) },
          session.setCookie,
        );
        return { ...response, headers: { ...headers, ...response.headers } };
      },
    },
    {
      method: 'POST',
      path: '/admin/access-token',
      auth: 'public',
      handle: async (request) => {
        const session = await auth.refresh(cookie(request, ADMIN_REFRESH_COOKIE), request.secure);
        return signedIn({ token: session.accessToken }, session.setCookie);
      },
    },
    {
      method: 'POST',
      path: '/admin/logout',
      auth: 'admin',
      handle: async (request, admin) => {
        const body = checkAdminBody(request.body, { deviceId: { kind: 'uuid' } });
        await auth.signOut(admin.id, typeof body.deviceId === 'string' ? body.deviceId : undefined);
        return signedIn({}, auth.clearCookie(request.secure));
      },
    },
    {
      method: 'GET',
      path: '/admin/users/me',
      auth: 'admin',
      handle: async (_request, admin) => {
        const user = await users.byId(admin.id);
        if (!user) throw new ApplicationError('User not found');
        return ok(adminUserView(user, await users.rolesOf(admin.id)));
      },
    },
    {
      method: 'GET',
      path: '/admin/users/me/permissions',
      auth: 'admin',
      handle: async (_request, admin) => ok(await auth.permissionsOf(admin.id)),
    },
  ];
}

function deviceOf(body: unknown): { deviceId?: string; rememberMe?: boolean } {
  const record = (body ?? {}) as { deviceId?: unknown; rememberMe?: unknown };
  return {
    ...(typeof record.deviceId === 'string' && record.deviceId !== '' ? { deviceId: record.deviceId } : {}),
    ...(record.rememberMe === true ? { rememberMe: true } : {}),
  };
}
