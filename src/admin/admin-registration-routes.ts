import { ValidationError } from '../core/errors.js';
import { hashPassword } from '../core/password-hash.js';
import { header } from '../http/http-types.js';
import { adminUserView } from './admin-auth-routes.js';
import { checkAdminBody } from './admin-body-checks.js';
import { ok, type AdminRoute } from './admin-route.js';
import { ADMIN_ACCOUNT_LOCKS, type AdminSettingsDeps } from './admin-settings-context.js';
import { writeAccount } from './admin-user-lifecycles.js';

/**
 * The invitation routes, public as in Strapi: `GET /admin/registration-info?registrationToken=…`
 * (the invited account's email and names, for the registration form the invitation link opens)
 * and `POST /admin/register` (the invited user chooses a password: the account becomes active,
 * the token is spent, and the user is signed in as after a login).
 */
export function adminRegistrationRoutes(
  deps: Pick<AdminSettingsDeps, 'db' | 'auth' | 'users' | 'accounts' | 'lifecycles'>,
): AdminRoute[] {
  const { db, auth, users, accounts } = deps;
  return [
    {
      method: 'GET',
      path: '/admin/registration-info',
      auth: 'public',
      handle: async (request) => {
        const query = checkAdminBody(
          request.query,
          { registrationToken: { kind: 'string', required: true } },
          { noUnknown: true },
        );
        const user = await accounts.byRegistrationToken(String(query.registrationToken));
        if (!user) throw new ValidationError('Invalid registrationToken');
        return ok({ email: user.email, firstname: user.firstname, lastname: user.lastname });
      },
    },
    {
      method: 'POST',
      path: '/admin/register',
      auth: 'public',
      handle: async (request) => {
        const body = checkAdminBody(
          request.body,
          {
            registrationToken: { kind: 'string', required: true },
            userInfo: { kind: 'object', required: true },
            deviceId: { kind: 'uuid' },
            rememberMe: { kind: 'boolean' },
          },
          { noUnknown: true },
        );
        const info = checkAdminBody(
          body.userInfo,
          {
            firstname: { kind: 'string', required: true, notNull: true },
            lastname: { kind: 'string' },
            password: { kind: 'password', required: true },
          },
          { noUnknown: true, prefix: 'userInfo' },
        );
        const passwordHash = await hashPassword(String(info.password));
        const userId = await db.transaction(async (tx) => {
          await tx.lock(ADMIN_ACCOUNT_LOCKS);
          const user = await accounts.byRegistrationToken(String(body.registrationToken), tx);
          if (!user) throw new ValidationError('Invalid registration info');
          // What Strapi's admin service hands its Query Engine when an invitation is used.
          const data = {
            password: passwordHash,
            firstname: String(info.firstname),
            lastname: typeof info.lastname === 'string' ? info.lastname : null,
            registrationToken: null,
            isActive: true,
          };
          await deps.lifecycles.update(tx, user.id, data, (written) => writeAccount(accounts, tx, user.id, written));
          return user.id;
        });
        const user = await users.byId(userId);
        if (!user) throw new ValidationError('Invalid registration info');
        const session = await auth.signIn(userId, {
          ...(typeof body.deviceId === 'string' ? { deviceId: body.deviceId } : {}),
          ...(body.rememberMe === true ? { rememberMe: true } : {}),
          userAgent: header(request, 'user-agent'),
          https: request.secure,
        });
        return {
          status: 200,
          body: {
            data: {
              token: session.accessToken,
              accessToken: session.accessToken,
              user: adminUserView(user, await users.rolesOf(userId)),
            },
          },
          headers: { 'set-cookie': session.setCookie },
        };
      },
    },
  ];
}
