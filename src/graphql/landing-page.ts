import { header, type HttpRequest } from '../http/http-types.js';

/**
 * The page a browser gets at the endpoint when the plugin's `landingPage` is on (outside
 * production by default): Apollo's embeddable Sandbox, loaded from Apollo's CDN as Apollo
 * Server's own landing page does, pointed at this endpoint. A project whose
 * `strapi::security` content security policy does not allow that CDN sees a blank page, as under
 * Strapi.
 */
export const LANDING_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>GraphQL Sandbox</title></head>
<body style="margin:0;overflow:hidden">
<div id="sandbox" style="position:absolute;inset:0"></div>
<script src="https://embeddable-sandbox.cdn.apollographql.com/_latest/embeddable-sandbox.umd.production.min.js"></script>
<script>
new window.EmbeddedSandbox({ target: '#sandbox', initialEndpoint: location.href.split('?')[0], includeCookies: false });
</script>
</body>
</html>
`;

/** A browser asking for the endpoint itself: a GET for HTML without a query. */
export function wantsLandingPage(request: HttpRequest): boolean {
  return (
    request.method === 'GET' &&
    request.query.query === undefined &&
    (header(request, 'accept') ?? '').includes('text/html')
  );
}
