import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

/** What a preview handler receives with the type's uid. */
export interface PreviewParams {
  readonly documentId: string;
  readonly locale?: string | null;
  readonly status: string;
}

/** `config/admin` `preview.config.handler`: the front end's URL of a document. */
export type PreviewHandler = (uid: string, params: PreviewParams) => unknown;

/**
 * `config/admin` `preview: { enabled, config: { allowedOrigins, handler } }` as Strapi 5.54's
 * content manager reads it (its preview-config service).
 */
export interface PreviewConfig {
  /**
   * Strapi's "configured": `enabled: false`, or a handler given. Unconfigured, the preview URL
   * route answers 404 `Preview config not found` and the panel offers "Set up preview".
   */
  readonly configured: boolean;
  /** The handler; null when preview is disabled or has no handler (the URL is then empty: 204). */
  readonly handler: PreviewHandler | null;
  /** `config.allowedOrigins` of an enabled preview: the origins the panel may frame (CSP `frame-src`). */
  readonly frameOrigins: readonly string[];
}

/**
 * Reads `preview`. Preview is enabled when the key is there and `enabled` is not false; then a
 * handler that is set must be a function (else the start stops with Strapi's message).
 *
 *   undefined                                          → { configured: false, handler: null, frameOrigins: [] }
 *   { config: { handler, allowedOrigins: 'https://x' } } → { configured: true, handler, frameOrigins: ['https://x'] }
 *   { enabled: false, config: { handler } }            → { configured: true, handler: null, frameOrigins: [] }
 */
export function normalizePreview(raw: unknown): PreviewConfig {
  if (!isRecord(raw)) return { configured: false, handler: null, frameOrigins: [] };
  const config = isRecord(raw.config) ? raw.config : {};
  const enabled = raw.enabled ?? true;
  const configured = raw.enabled === false || (config.handler !== undefined && config.handler !== null);
  if (!enabled) return { configured, handler: null, frameOrigins: [] };
  const handler = config.handler || null;
  if (handler !== null && typeof handler !== 'function')
    throw new ProjectError('config/admin: Preview configuration is invalid. Handler must be a function');
  const origins = config.allowedOrigins;
  const frameOrigins = typeof origins === 'string' ? [origins] : Array.isArray(origins) ? origins.map(String) : [];
  return { configured, handler: handler as PreviewHandler | null, frameOrigins };
}
