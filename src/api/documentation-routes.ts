import type { DocumentationConfig } from '../config/documentation-config.js';
import { NotFoundError } from '../core/errors.js';
import type { HttpResponse, Route } from '../http/http-types.js';
import type { OpenApiDocument } from '../openapi/openapi-types.js';
import { SWAGGER_UI_FILES, swaggerUiAssets } from './swagger-ui-assets.js';

const ASSET_CACHE = 'public, max-age=86400';

/**
 * What the documentation plugin serves, without authentication as the plugin does by default:
 *
 *   GET <path>                the Swagger UI page, reading the document below
 *   GET <path>/openapi.json   the project's OpenAPI 3.1 document (built on first request, then kept)
 *   GET <path>/<file>         the viewer's own files (swagger-ui-dist) and its start-up script
 *
 * `<path>` is `x-strapi-config.path` (`/documentation`).
 */
export function documentationRoutes(settings: DocumentationConfig, build: () => OpenApiDocument): Route[] {
  const { path } = settings;
  let json: string | undefined;
  const assets = swaggerUiAssets();
  const get = (at: string, handle: () => HttpResponse): Route => ({
    method: 'GET',
    path: at,
    handle: async () => handle(),
  });
  return [
    get(path, () => ({ status: 200, html: page(settings) })),
    get(`${path}/openapi.json`, () => {
      json ??= JSON.stringify(build());
      return { status: 200, raw: { contentType: 'application/json; charset=utf-8', content: json } };
    }),
    get(`${path}/swagger-initializer.js`, () => ({
      status: 200,
      headers: { 'cache-control': 'no-cache' },
      raw: { contentType: 'text/javascript; charset=utf-8', content: initializer(path) },
    })),
    ...Object.keys(SWAGGER_UI_FILES).map((file) =>
      get(`${path}/${file}`, () => {
        const asset = assets(file);
        if (!asset) throw new NotFoundError();
        return { status: 200, headers: { 'cache-control': ASSET_CACHE }, raw: asset };
      }),
    ),
  ];
}

/** The viewer's page: scripts from this server only, so the default `script-src 'self'` policy lets them run. */
function page(settings: DocumentationConfig): string {
  const base = escapeHtml(settings.path);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(settings.info.title)} – API documentation</title>
<link rel="stylesheet" href="${base}/swagger-ui.css">
<link rel="icon" type="image/png" href="${base}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}/swagger-ui-bundle.js"></script>
<script src="${base}/swagger-initializer.js"></script>
</body>
</html>
`;
}

/** Starts Swagger UI on the document; the token a user enters under Authorize is kept across reloads. */
function initializer(path: string): string {
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(`${path}/openapi.json`)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
