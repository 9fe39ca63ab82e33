import { NotFoundError } from '../core/errors.js';
import type { Session } from '../users-permissions/session-store.js';
import type { AdminAuth } from './admin-auth.js';
import { ok, type AdminRoute } from './admin-route.js';

/**
 * One row of the admin panel's Active devices page (user menu → Active devices), as Strapi 5's
 * `authenticated-session` controller answers it: never a token or a database id. `current` marks
 * the session of the access token making the request; `loginAt` and `deviceName` come from what
 * the login recorded, `lastActiveAt` is when the session's active record was created (a refresh
 * replaces it, so that is when the device last renewed its token). Strapi leaves out the keys it
 * has no value for.
 */
export interface ActiveSessionView {
  readonly id: string;
  readonly deviceId: string;
  readonly deviceName?: string;
  readonly current: boolean;
  readonly loginAt?: string;
  readonly lastActiveAt?: string;
}

/** What the routes need: admin authentication, which lists and ends sessions. */
export interface AdminSessionsDeps {
  readonly auth: Pick<AdminAuth, 'listSessions' | 'revokeSession' | 'signOut'>;
}

/**
 * The signed-in admin's own sessions, as Strapi 5 serves them under `/admin/users/me/sessions`:
 * - `GET` lists them (active and unexpired, both remembered and browser-long ones): the current
 *   session first, then the most recently used, as `{ data: ActiveSessionView[] }`;
 * - `DELETE /:sessionId` ends one of them (`{ data: {} }`); a session that is not the caller's,
 *   or does not exist, is 404 `Session not found`. Its access token stops working at the next
 *   request (authentication looks the session up) and its refresh cookie can no longer rotate;
 * - `DELETE` ends all of them, or all but the caller's with `?keepCurrent=true` (or `1`).
 * Only the caller's sessions are ever read or ended: the user id comes from the access token.
 */
export function adminSessionsRoutes(deps: AdminSessionsDeps): AdminRoute[] {
  const { auth } = deps;
  return [
    {
      method: 'GET',
      path: '/admin/users/me/sessions',
      auth: 'admin',
      handle: async (_request, admin) => {
        const sessions = await auth.listSessions(admin.id);
        return ok(sortForDisplay(sessions.map((session) => sessionView(session, admin.sessionId))));
      },
    },
    {
      method: 'DELETE',
      path: '/admin/users/me/sessions',
      auth: 'admin',
      handle: async (request, admin) => {
        const keep = request.query.keepCurrent;
        if (keep === 'true' || keep === '1') {
          const others = (await auth.listSessions(admin.id)).filter((s) => s.sessionId !== admin.sessionId);
          for (const session of others) await auth.revokeSession(admin.id, session.sessionId);
        } else {
          await auth.signOut(admin.id);
        }
        return ok({});
      },
    },
    {
      method: 'DELETE',
      path: '/admin/users/me/sessions/:sessionId',
      auth: 'admin',
      handle: async (request, admin) => {
        const sessionId = request.params.sessionId ?? '';
        if (sessionId === '' || !(await auth.revokeSession(admin.id, sessionId)))
          throw new NotFoundError('Session not found');
        return ok({});
      },
    },
  ];
}

/** A session as the page shows it; `currentSessionId` is the caller's (empty when none). */
export function sessionView(session: Session, currentSessionId: string | null): ActiveSessionView {
  const { deviceName, loginAt } = session.metadata ?? {};
  return {
    id: session.sessionId,
    deviceId: session.deviceId,
    ...(typeof deviceName === 'string' ? { deviceName } : {}),
    current: Boolean(currentSessionId) && session.sessionId === currentSessionId,
    ...(typeof loginAt === 'string' ? { loginAt } : {}),
    ...(Number.isFinite(session.createdAt) ? { lastActiveAt: new Date(session.createdAt).toISOString() } : {}),
  };
}

/** The current session first, then by last activity, most recent first (Strapi's display order). */
export function sortForDisplay(views: readonly ActiveSessionView[]): ActiveSessionView[] {
  return [...views].sort((a, b) => {
    if (a.current !== b.current) return a.current ? -1 : 1;
    return (b.lastActiveAt ?? '').localeCompare(a.lastActiveAt ?? '');
  });
}

/** Longest User-Agent read: real ones are far shorter, and a huge header should cost nothing. */
const MAX_USER_AGENT = 1024;

/** Browser tokens, the more specific first (Chromium forks and Edge also say `Chrome/`). */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(?:YaBrowser|Yowser)\//, 'Yandex Browser'],
  [/\bBrave\//, 'Brave'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];

/** Operating systems, iOS before macOS (iOS agents say `Mac OS X` too). */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bWindows NT\b/, 'Windows'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A human label for a login's device from its User-Agent, the way Strapi names devices
 * (`Chrome on Linux`, `Firefox`, `macOS`); undefined when nothing is recognised.
 */
export function deviceNameOf(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  const agent = userAgent.slice(0, MAX_USER_AGENT);
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system;
}
