import { describe, expect, it } from 'vitest';
import { ProjectError } from '../core/errors.js';
import { normalizePreview } from './preview-config.js';

describe('normalizePreview', () => {
  const handler = () => 'https://site.example/preview';

  it("reads Strapi's configured and enabled rules", () => {
    expect(normalizePreview(undefined)).toEqual({ configured: false, handler: null, frameOrigins: [] });
    expect(normalizePreview({ config: { handler, allowedOrigins: 'https://site.example' } })).toEqual({
      configured: true,
      handler,
      frameOrigins: ['https://site.example'],
    });
    // Enabled without a handler: not configured (the route answers 404).
    expect(normalizePreview({ enabled: true, config: { allowedOrigins: ['https://a', 'https://b'] } })).toEqual({
      configured: false,
      handler: null,
      frameOrigins: ['https://a', 'https://b'],
    });
    // Disabled: configured, with no URL to give (204), and nothing framed.
    expect(normalizePreview({ enabled: false, config: { handler, allowedOrigins: ['https://a'] } })).toEqual({
      configured: true,
      handler: null,
      frameOrigins: [],
    });
  });

  it("stops the start on a handler that is not a function, with Strapi's message", () => {
    expect(() => normalizePreview({ config: { handler: 'https://x' } })).toThrow(
      new ProjectError('config/admin: Preview configuration is invalid. Handler must be a function'),
    );
    expect(normalizePreview({ enabled: false, config: { handler: 'https://x' } }).handler).toBeNull();
  });
});
