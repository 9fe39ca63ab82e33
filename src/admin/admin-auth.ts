import { randomUUID } from 'node:crypto';
import { evaluatePermissions, needsEvaluation, type ConditionUser } from '../access/admin-condition-evaluation.js';
import type { AdminConditions } from '../access/admin-conditions.js';
import { EVERYTHING, grantKey, grantTable, type GrantSource } from '../access/admin-grants.js';
import type { AdminIdentity } from '../access/principal.js';
import { bearerToken } from '../access/principal.js';
import type { AdminConfig } from '../config/admin-config.js';
import { UnauthorizedError } from '../core/errors.js';
import type { Database } from '../db/database.js';
import { createJwtService, type JwtService } from '../users-permissions/jwt-service.js';
import { createSessionStore, type Session, type SessionStore } from '../users-permissions/session-store.js';
import type { AdminPermissions, StoredPermission } from './admin-roles.js';
import type { AdminRole, AdminUser, AdminUserStore } from './admin-users.js';
import { deviceNameOf } from './admin-sessions-routes.js';
import { authenticateAdminKey, type OwnerAbility } from './settings/admin-token-auth.js';

/** The admin panel's refresh cookie, as Strapi names it. */
export const ADMIN_REFRESH_COOKIE = 'strapi_admin_refresh';
const INVALID = 'Missing or invalid credentials';

/** A signed-in admin: the tokens to answer and the refresh cookie to set. */
export interface AdminSignIn {
  readonly accessToken: string;
  readonly setCookie: string;
}

/**
 * Admin authentication, separate from users-permissions: its own secret (`ADMIN_JWT_SECRET`), its
 * own sessions (`strapi_sessions` rows with origin `admin`) and refresh cookie. A sign-in opens a
 * session (type `refresh` when the user asked to be remembered, else `session`, which ends
 * sooner and whose cookie lasts as long as the browser); the short-lived access token names it,
 * and is accepted only while that session is active: logging out ends it at once.
 */
export interface AdminAuth {
  /** `https`: the request came over HTTPS (HttpRequest.secure), which decides the cookie's `Secure` flag. */
  signIn(
    userId: number,
    options: {
      readonly deviceId?: string;
      readonly rememberMe?: boolean;
      readonly userAgent?: string;
      readonly https: boolean;
    },
  ): Promise<AdminSignIn>;
  /**
   * The admin an `Authorization: Bearer` header proves (401 otherwise): an admin access token
   * (a JWT, always dotted), or an admin token's key, which acts as its owner within the token's
   * permissions (settings/admin-token-auth.ts).
   */
  authenticate(
    authorization: string | undefined,
  ): Promise<{ readonly identity: AdminIdentity; readonly user: AdminUser }>;
  /** A new access token for a refresh cookie, the session rotated (401 when missing or unusable). */
  refresh(refreshToken: string | undefined, https: boolean): Promise<AdminSignIn>;
  /** Ends the user's sessions on one device, or all of them. */
  signOut(userId: number, deviceId?: string): Promise<void>;
  /** The user's active, unexpired sessions (both kinds), oldest first. */
  listSessions(userId: number): Promise<Session[]>;
  /** Ends one of the user's sessions (either kind); false when the user has no such session. */
  revokeSession(userId: number, sessionId: string): Promise<boolean>;
  /** The `Set-Cookie` that clears the refresh cookie. */
  clearCookie(https: boolean): string;
  /** Every permission the user's roles grant, in role then permission order. */
  permissionsOf(userId: number): Promise<StoredPermission[]>;
  /** Re-reads the roles' permissions (after they change). */
  reloadPermissions(): Promise<void>;
}

/** Builds admin authentication in the composition root. */
export function createAdminAuth(options: {
  readonly db: Database;
  readonly config: AdminConfig;
  readonly users: AdminUserStore;
  readonly permissions: () => Promise<AdminPermissions>;
  readonly now: () => Date;
  /** `NODE_ENV` is production: without `auth.cookie.secure`, the cookie is `Secure` on HTTPS requests. */
  readonly production: boolean;
  /** The conditions permissions may carry: the project's are evaluated for the admin at each request. */
  readonly conditions: AdminConditions;
}): AdminAuth {
  const { db, config, users } = options;
  const auth = config.auth;
  const clock = () => options.now().getTime();
  const jwt: JwtService | null = auth.secret ? createJwtService(auth.secret, 'HS256', clock) : null;
  const signer = (): JwtService => {
    if (!jwt)
      throw new UnauthorizedError('The admin panel is not configured: set ADMIN_JWT_SECRET (config/admin auth.secret)');
    return jwt;
  };
  const remembered: SessionStore = createSessionStore(
    db,
    { idleSeconds: auth.idleRefreshTokenLifespan, maxSeconds: auth.maxRefreshTokenLifespan },
    clock,
    { origin: 'admin', type: 'refresh' },
  );
  const browser: SessionStore = createSessionStore(
    db,
    { idleSeconds: auth.idleSessionLifespan, maxSeconds: auth.maxSessionLifespan },
    clock,
    { origin: 'admin', type: 'session' },
  );
  let permissions: AdminPermissions | null = null;
  const loadPermissions = async () => (permissions ??= await options.permissions());

  /**
   * What the user's roles let them do: a Super Admin everything, anyone else what a role grants,
   * the project's conditions evaluated for them now (as Strapi's engine does at each request).
   */
  const ownerMay = async (user: AdminUser): Promise<OwnerAbility> => {
    const roles = await users.rolesOf(user.id);
    const loaded = await loadPermissions();
    const isSuperAdmin = roles.some((role) => role.id === loaded.superAdminRoleId);
    const held = roles.flatMap((role) => loaded.byRole.get(role.id) ?? []);
    const evaluate = <P extends GrantSource>(permissions: readonly P[]): Promise<P[]> | readonly P[] =>
      needsEvaluation(permissions)
        ? evaluatePermissions(permissions, conditionUser(user, roles), options.conditions)
        : permissions;
    const table = grantTable(isSuperAdmin ? [] : await evaluate(held));
    const grants = (action: string, subject: string | null) =>
      isSuperAdmin ? [EVERYTHING] : (table.get(grantKey(action, subject)) ?? []);
    return {
      isSuperAdmin,
      roleIds: roles.map((role) => role.id),
      may: (action, subject) => grants(action, subject).length > 0,
      grants,
      evaluate,
    };
  };

  // Strapi 5.54's rule: `auth.cookie.secure` when set, else a production server's HTTPS requests.
  const cookie = (value: string, expires: number | null, https: boolean): string => {
    const parts = [`${ADMIN_REFRESH_COOKIE}=${value}`, `path=${auth.cookie.path}`];
    if (expires !== null) parts.push(`expires=${new Date(expires).toUTCString()}`);
    if (auth.cookie.domain) parts.push(`domain=${auth.cookie.domain}`);
    parts.push(`samesite=${auth.cookie.sameSite}`, 'httponly');
    if (auth.cookie.secure ?? (options.production && https)) parts.push('secure');
    return parts.join('; ');
  };
  const tokensFor = async (session: Session, rememberMe: boolean, https: boolean): Promise<AdminSignIn> => {
    const { sessionId, userId } = session;
    const signing = signer();
    // `rememberMe` names the session's store, so checking an access token costs one lookup.
    const accessToken = await signing.issue(
      { userId, sessionId, type: 'access', rememberMe },
      auth.accessTokenLifespan,
    );
    const refreshSeconds = Math.max(1, Math.floor((session.expiresAt - clock()) / 1000));
    const refreshToken = await signing.issue({ userId, sessionId, type: 'refresh', rememberMe }, refreshSeconds);
    return { accessToken, setCookie: cookie(refreshToken, rememberMe ? session.absoluteExpiresAt : null, https) };
  };

  return {
    async signIn(userId, { deviceId, rememberMe = false, userAgent, https }) {
      signer();
      const store = rememberMe ? remembered : browser;
      // What Strapi records at a login, for Active devices: when, and a label from the User-Agent.
      const deviceName = deviceNameOf(userAgent);
      const metadata = { loginAt: options.now().toISOString(), ...(deviceName ? { deviceName } : {}) };
      return tokensFor(await store.open(String(userId), deviceId ?? randomUUID(), metadata), rememberMe, https);
    },

    async authenticate(authorization) {
      const token = bearerToken(authorization);
      if (token !== null && !token.includes('.'))
        return authenticateAdminKey({ db, salt: config.apiTokenSalt, users, now: options.now, ownerMay }, token);
      if (token === null || !jwt) throw new UnauthorizedError(INVALID);
      const payload = await jwt.verify(token);
      if (!payload || payload.type !== 'access' || typeof payload.sessionId !== 'string')
        throw new UnauthorizedError(INVALID);
      const session = await (payload.rememberMe === true ? remembered : browser).findUsable(payload.sessionId);
      if (!session) throw new UnauthorizedError(INVALID);
      const user = await users.byId(Number(session.userId));
      if (!user || !user.isActive || user.blocked) throw new UnauthorizedError(INVALID);
      const { evaluate: _evaluate, ...owner } = await ownerMay(user);
      const identity: AdminIdentity = { id: user.id, sessionId: session.sessionId, ...owner };
      return { identity, user };
    },

    async refresh(refreshToken, https) {
      if (!refreshToken) throw new UnauthorizedError('Missing refresh token');
      const payload = await signer().verify(refreshToken);
      if (!payload || payload.type !== 'refresh' || typeof payload.sessionId !== 'string')
        throw new UnauthorizedError('Invalid refresh token');
      const rememberMe = payload.rememberMe === true;
      const next = await (rememberMe ? remembered : browser).rotate(payload.sessionId);
      if (!next) throw new UnauthorizedError('Invalid refresh token');
      return tokensFor(next, rememberMe, https);
    },

    async signOut(userId, deviceId) {
      await remembered.revoke(String(userId), deviceId);
      await browser.revoke(String(userId), deviceId);
    },

    // Both stores read and delete by origin, whatever the type: one of them sees every admin session.
    listSessions: (userId) => remembered.listUsable(String(userId)),
    revokeSession: (userId, sessionId) => remembered.revokeOne(String(userId), sessionId),

    clearCookie: (https) => cookie('', 0, https),

    async permissionsOf(userId) {
      const roles = await users.rolesOf(userId);
      const loaded = await loadPermissions();
      return roles.flatMap((role) => loaded.byRole.get(role.id) ?? []);
    },

    async reloadPermissions() {
      permissions = await options.permissions();
    },
  };
}

/**
 * The admin as a condition's handler receives it, as Strapi's admin strategy reads it (the user
 * row with its roles), its secrets (password hash, reset and registration tokens) left out.
 */
function conditionUser(user: AdminUser, roles: readonly AdminRole[]): ConditionUser {
  const { passwordHash: _hash, ...fields } = user;
  return { ...fields, locale: null, roles: roles.map((role) => ({ ...role })) };
}
