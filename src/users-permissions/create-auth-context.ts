import type { Config } from '../config/config.js';
import type { DocumentContext } from '../documents/context.js';
import type { EmailTransport } from '../email/email-transport.js';
import type { ContentType } from '../schema/types.js';
import { apiUrlOf, USER_UID, type AuthContext } from './auth-context.js';
import { createJwtService } from './jwt-service.js';
import { loadUsersPermissionsSettings, readUsersPermissionsSettings } from './plugin-settings.js';
import { findRoleIdByType } from './role-permissions.js';
import { createSessionStore } from './session-store.js';
import { createUserStore } from './user-store.js';

/**
 * Builds the users-permissions context at start: settings from the core store, stores, JWT signer.
 * `reloadSettings` keeps the newest read when reloads overlap: a read started earlier never
 * replaces one started later.
 */
export async function createAuthContext(options: {
  readonly config: Config;
  readonly documents: DocumentContext;
  readonly mail: EmailTransport;
  readonly now: () => Date;
  readonly onMailError: (error: unknown) => void;
  /** Hears that sessions ended (a logout, a revoked session, a password changed or reset): streams check their credentials again. */
  readonly onSessionsEnded: () => void;
}): Promise<AuthContext> {
  const { config, documents, now } = options;
  const { db } = documents;
  const up = config.usersPermissions;
  const clock = () => now().getTime();
  let settings = await loadUsersPermissionsSettings(db, up.advanced);
  let reads = 0;
  const sessions = createSessionStore(
    db,
    {
      idleSeconds: up.sessions.idleRefreshTokenLifespanSeconds,
      maxSeconds: up.sessions.maxRefreshTokenLifespanSeconds,
    },
    clock,
  );
  return {
    config: up,
    get settings() {
      return settings;
    },
    async reloadSettings() {
      const read = ++reads;
      const fresh = await readUsersPermissionsSettings(db, up.advanced);
      if (read === reads) settings = fresh;
    },
    documents,
    userType: documents.schema.contentTypes.get(USER_UID) as ContentType,
    users: createUserStore(db),
    roles: { idOfType: (type) => findRoleIdByType(db, type) },
    sessions: {
      ...sessions,
      async revoke(userId, deviceId) {
        const ended = await sessions.revoke(userId, deviceId);
        if (ended > 0) options.onSessionsEnded();
        return ended;
      },
      async revokeOne(userId, sessionId) {
        const ended = await sessions.revokeOne(userId, sessionId);
        if (ended) options.onSessionsEnded();
        return ended;
      },
    },
    jwt: createJwtService(up.jwtSecret, up.jwtAlgorithm, clock),
    mail: options.mail,
    apiUrl: apiUrlOf(config),
    serverUrl: config.server.url,
    now,
    onMailError: options.onMailError,
  };
}
