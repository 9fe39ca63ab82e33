import type { Principal } from '../access/principal.js';
import { getApiToken } from '../api-tokens/api-token-store.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { readUserDocument, userQuery, type AuthContext } from '../users-permissions/auth-context.js';
import { withPrincipal } from './context-state.js';

/**
 * `ctx.state.auth` and `ctx.state.user` as Strapi's content-API strategies leave them for
 * `principal`: the user with its role (`users-permissions`), the API token (`content-api-token`),
 * or no credentials. The `auth` object remembers the caller (`strapi.contentAPI.sanitize` reads it).
 */
export async function callerState(
  deps: { readonly auth: AuthContext; readonly config: Config; readonly db: Database },
  principal: Principal,
): Promise<{ auth: unknown; user: unknown }> {
  switch (principal.kind) {
    case 'user': {
      const user = await readUserDocument(
        deps.auth,
        principal.user.id,
        userQuery(deps.auth, deps.config, { populate: ['role'] }),
      );
      return { auth: withPrincipal({ strategy: { name: 'users-permissions' }, credentials: user }, principal), user };
    }
    case 'apiToken': {
      const token = await getApiToken(deps.db, principal.token.id, undefined);
      return {
        auth: withPrincipal({ strategy: { name: 'content-api-token' }, credentials: token }, principal),
        user: null,
      };
    }
    default:
      return {
        auth: withPrincipal({ strategy: { name: 'users-permissions' }, credentials: null }, principal),
        user: null,
      };
  }
}
