import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A file of the viewer: its bytes and content type. */
export interface Asset {
  readonly contentType: string;
  readonly content: Buffer;
}

/** The files of swagger-ui-dist the page loads, with their content types; nothing else is served. */
export const SWAGGER_UI_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Reads the Swagger UI files from the installed swagger-ui-dist package (no CDN: the page works
 * offline and under the default content security policy, `script-src 'self'`). Each file is read
 * on first use and kept in memory (the bundle is about 1.5 MB).
 */
export function swaggerUiAssets(): (file: string) => Asset | null {
  const root = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Asset>();
  return (file) => {
    const contentType = SWAGGER_UI_FILES[file];
    if (contentType === undefined) return null;
    let asset = cache.get(file);
    if (!asset) {
      asset = { contentType, content: readFileSync(join(root, file)) };
      cache.set(file, asset);
    }
    return asset;
  };
}
