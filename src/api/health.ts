import type { Route } from '../http/http-types.js';

/** `GET /_health` → 204 once the server accepts requests, with Strapi's header. */
export const healthRoute: Route = {
  method: 'GET',
  path: '/_health',
  handle: async () => ({ status: 204, headers: { strapi: 'You are so French!' } }),
};
