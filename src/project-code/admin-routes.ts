import type { AdminIdentity } from '../access/principal.js';
import type { AdminAuth } from '../admin/admin-auth.js';
import { isRecord } from '../core/is-record.js';
import { toErrorEnvelope } from '../http/error-envelope.js';
import { header } from '../http/http-types.js';
import { principalOf, requestOf, setPrincipal, withPrincipal, type ProjectContext } from './context-state.js';
import type { Policy } from './code-registry.js';

/**
 * Authenticates the caller of a plugin's `admin` route as Strapi's admin strategy does: a valid
 * admin access token of an active session (or an admin token) leaves `ctx.state.user` (the admin
 * user), `ctx.state.userAbility` (`can(action, subject)`), `ctx.state.isAuthenticated` and
 * `ctx.state.auth` and resolves true; anything else answers 401 `Missing or invalid credentials`
 * and resolves false.
 */
export type AdminAuthenticate = (ctx: ProjectContext) => Promise<boolean>;

/** The admin authentication of plugins' admin routes, over the admin API's own (loaded on first use). */
export function createAdminAuthenticate(auth: () => Promise<AdminAuth>): AdminAuthenticate {
  return async (ctx) => {
    const request = requestOf(ctx, ctx.params);
    let signedIn: Awaited<ReturnType<AdminAuth['authenticate']>>;
    try {
      signedIn = await (await auth()).authenticate(header(request, 'authorization'));
    } catch (error) {
      if (toErrorEnvelope(error).status !== 401) throw error;
      (ctx as unknown as { unauthorized(message: string): void }).unauthorized('Missing or invalid credentials');
      return false;
    }
    const { passwordHash: _hidden, ...user } = signedIn.user;
    const ability = abilityOf(signedIn.identity);
    setPrincipal(ctx, { kind: 'admin', admin: signedIn.identity });
    ctx.state.user = user;
    ctx.state.userAbility = ability;
    ctx.state.isAuthenticated = true;
    ctx.state.auth = withPrincipal({ strategy: { name: 'admin' }, credentials: user, ability }, principalOf(ctx));
    return true;
  };
}

/** What Strapi's admin policies check, by name: `admin::isAuthenticatedAdmin`, `admin::hasPermissions`. */
export function adminPolicy(name: string): Policy | undefined {
  if (name === 'admin::isAuthenticatedAdmin')
    return (context) => Boolean((context as ProjectContext).state?.isAuthenticated);
  if (name === 'admin::hasPermissions') return hasPermissions;
  return undefined;
}

/**
 * `admin::hasPermissions` with `{ actions: [...] }`: every action (a name, `[action, subject]` or
 * `{ action, subject }`) is granted by the admin's roles.
 */
const hasPermissions: Policy = (context, config) => {
  const principal = principalOf(context as ProjectContext);
  if (principal.kind !== 'admin') return false;
  const actions = isRecord(config) && Array.isArray(config.actions) ? config.actions : [];
  return actions.every((entry: unknown) => {
    const [action, subject] = Array.isArray(entry)
      ? [entry[0], entry[1]]
      : isRecord(entry)
        ? [entry.action, entry.subject]
        : [entry, undefined];
    return typeof action === 'string' && principal.admin.may(action, typeof subject === 'string' ? subject : null);
  });
};

/** `ctx.state.userAbility` as plugin code reads it: `can(action, subject?)` over the admin's permissions. */
function abilityOf(identity: AdminIdentity): { can(action: string, subject?: string): boolean } {
  return { can: (action, subject) => identity.may(action, subject ?? null) };
}
