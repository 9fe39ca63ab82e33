import type { Config } from '../config/config.js';
import type { UsersPermissionsConfig } from '../config/users-permissions-config.js';
import { answerReader, type DocumentContext } from '../documents/context.js';
import { findManyDocuments } from '../documents/read-documents.js';
import type { EmailTransport } from '../email/email-transport.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import type { Document } from '../shape/shape-rows.js';
import type { JwtService } from './jwt-service.js';
import type { UsersPermissionsSettings } from './plugin-settings.js';
import type { SessionStore } from './session-store.js';
import type { UserStore } from './user-store.js';

/** The uid of Strapi's user content type, whose rows (`up_users`) the flows read and write. */
export const USER_UID = 'plugin::users-permissions.user';

/** Everything the users-permissions flows work with, built once by the composition root. */
export interface AuthContext {
  readonly config: UsersPermissionsConfig;
  /** The plugin's settings as last read from the core store. */
  readonly settings: UsersPermissionsSettings;
  /** Reads the settings again (after the admin panel changed them): the flows see them from the next request on. */
  reloadSettings(): Promise<void>;
  readonly documents: DocumentContext;
  readonly userType: ContentType;
  readonly users: UserStore;
  /** Role ids by role type (`authenticated`, `public`, …). */
  readonly roles: { idOfType(type: string): Promise<number | null> };
  readonly sessions: SessionStore;
  readonly jwt: JwtService;
  readonly mail: EmailTransport;
  /** Absolute URL of the API root (`<server.url><prefix>`), for links sent by email. */
  readonly apiUrl: string;
  /** `server.url` ('' when unset): `<%= SERVER_URL %>` in email templates. */
  readonly serverUrl: string;
  readonly now: () => Date;
  /** Called when an email could not be sent (the flow itself still answers as Strapi does). */
  readonly onMailError: (error: unknown) => void;
}

/** The API root URL links in emails point to: `server.url` + the REST prefix (`/api` on its own when unset). */
export function apiUrlOf(config: Config): string {
  return `${config.server.url}${config.api.prefix}`;
}

/** A query on the user type from a raw query string (Strapi's parameters), for the users endpoints. */
export function userQuery(ctx: AuthContext, config: Config, raw: Readonly<Record<string, unknown>>): Query {
  return normalizeQuery(ctx.documents.schema, ctx.userType, raw, {
    api: config.api,
    defaultLocale: config.i18n.defaultLocale,
  });
}

/** The user as the API shows it (private fields left out), with `populate`; null when there is none. */
export async function readUserDocument(ctx: AuthContext, id: number, query: Query): Promise<Document | null> {
  const byId: Query = {
    ...query,
    filters: { kind: 'compare', field: 'id', op: 'eq', value: id },
    pagination: { mode: 'offset', start: 0, limit: 1, withCount: false },
  };
  const { documents } = await findManyDocuments(answerReader(ctx.documents, ctx.documents.db), ctx.userType, byId);
  return documents[0] ?? null;
}
