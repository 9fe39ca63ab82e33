import { authorizeQuery, findableBy } from '../access/authorize-query.js';
import type { AccessControl, Principal } from '../access/principal.js';
import type { Config } from '../config/config.js';
import { header, type HttpRequest, type HttpResponse, type Route } from '../http/http-types.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { StreamHub } from '../realtime/stream-hub.js';
import type { Schema } from '../schema/types.js';
import { withDefaultQuery } from './route-default-queries.js';

/** What the stream routes need. */
export interface StreamRoutesDeps {
  readonly config: Config;
  readonly schema: Schema;
  readonly access: AccessControl;
  readonly hub: StreamHub;
}

/**
 * `GET /api/:pluralApiId/stream` for every project collection type: Server-Sent Events of the
 * documents the caller may read (realtime/). In order, before the stream opens: authenticate
 * (`Authorization: Bearer`, or `?access_token=` since a browser's EventSource cannot send
 * headers; a bad one → 401), the type's `find` permission (→ 403), the query as the list GET
 * parses it, with the route's `find` default query (→ 400), the caller's connection limit (→ 429).
 */
export function streamRoutes(deps: StreamRoutesDeps): Route[] {
  if (!deps.config.realtime.enabled) return [];
  const routes: Route[] = [];
  for (const type of deps.schema.contentTypes.values()) {
    if (type.origin !== 'api' || type.kind !== 'collectionType') continue;
    const action = `${type.uid}.find`;
    const defaults = deps.config.api.defaultQueries.get(action);
    routes.push({
      method: 'GET',
      path: `${deps.config.api.prefix}/${type.pluralName}/stream`,
      action,
      handle: async (request) => {
        const credential = credentialOf(request);
        const caller = await deps.access.authenticate(credential);
        deps.access.authorize(caller, action);
        const { access_token: _token, lastEventId, ...raw } = request.query;
        const parsed = normalizeQuery(deps.schema, type, withDefaultQuery(raw, defaults), {
          api: deps.config.api,
          defaultLocale: deps.config.i18n.defaultLocale,
          deepPopulate: deps.config.api.deepPopulate,
        });
        const query = authorizeQuery(deps.schema, type, parsed, findableBy(deps.access, caller));
        if (request.method === 'HEAD') return streamResponse(() => undefined);
        const release = deps.hub.admit(callerKeyOf(caller, request));
        const resume = header(request, 'last-event-id') ?? (typeof lastEventId === 'string' ? lastEventId : null);
        return streamResponse((sink) => {
          sink.onClose(release);
          const callerKey = callerKeyOf(caller, request);
          deps.hub.attach({ type, query, caller, credential, callerKey, lastEventId: resume }, sink);
        });
      },
    });
  }
  return routes;
}

function streamResponse(start: NonNullable<HttpResponse['stream']>['start']): HttpResponse {
  return {
    status: 200,
    // No proxy buffering (nginx), no caching, one connection kept open.
    headers: { 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' },
    stream: { contentType: 'text/event-stream; charset=utf-8', start },
  };
}

function credentialOf(request: HttpRequest): string | undefined {
  const fromHeader = header(request, 'authorization');
  if (fromHeader !== undefined) return fromHeader;
  const token = request.query.access_token;
  return typeof token === 'string' && token !== '' ? `Bearer ${token}` : undefined;
}

/** Who the connection limit counts: an API token, a user or an admin by id, Public callers by address. */
function callerKeyOf(caller: Principal, request: HttpRequest): string {
  switch (caller.kind) {
    case 'apiToken':
      return `token:${caller.token.id}`;
    case 'user':
      return `user:${caller.user.id}`;
    case 'admin':
      return `admin:${caller.admin.id}`;
    case 'public':
    case 'system':
      return `ip:${request.ip}`;
  }
}
