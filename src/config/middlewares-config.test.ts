import { describe, expect, it } from 'vitest';
import { ProjectError } from '../core/errors.js';
import { normalizeMiddlewares } from './middlewares-config.js';

const DEFAULT_SECURITY = {
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'connect-src': ["'self'", 'https:'],
      'img-src': ["'self'", 'data:', 'blob:', 'https://market-assets.strapi.io'],
      'media-src': ["'self'", 'data:', 'blob:'],
      upgradeInsecureRequests: null,
    },
  },
  xssFilter: false,
  hsts: { maxAge: 31536000, includeSubDomains: true },
  frameguard: { action: 'sameorigin' },
};

describe('normalizeMiddlewares', () => {
  it("no config/middlewares: Strapi's default list, so both middlewares with their defaults", () => {
    expect(normalizeMiddlewares(undefined)).toEqual({ security: DEFAULT_SECURITY, poweredBy: 'Strapi <strapi.io>' });
  });

  it('the string forms mean the defaults', () => {
    expect(normalizeMiddlewares(['strapi::errors', 'strapi::security', 'strapi::poweredBy'])).toEqual({
      security: DEFAULT_SECURITY,
      poweredBy: 'Strapi <strapi.io>',
    });
  });

  it('a list without them: null', () => {
    expect(normalizeMiddlewares(['strapi::errors', 'strapi::cors', { resolve: './src/middlewares/custom' }])).toEqual({
      security: null,
      poweredBy: null,
    });
  });

  it('an object without config: the defaults', () => {
    expect(normalizeMiddlewares([{ name: 'strapi::security' }, { name: 'strapi::poweredBy' }])).toEqual({
      security: DEFAULT_SECURITY,
      poweredBy: 'Strapi <strapi.io>',
    });
  });

  it("merges a config as lodash's defaultsDeep: its values win, objects merge by key, arrays by index, null and false are kept", () => {
    const config = {
      contentSecurityPolicy: {
        directives: {
          'img-src': ["'self'", 'cdn.example.com'],
          'script-src': ["'self'", 'example.com'],
          'media-src': null,
        },
      },
      hsts: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
    };
    expect(normalizeMiddlewares([{ name: 'strapi::security', config }]).security).toEqual({
      ...DEFAULT_SECURITY,
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'img-src': ["'self'", 'cdn.example.com', 'blob:', 'https://market-assets.strapi.io'],
          'script-src': ["'self'", 'example.com'],
          'media-src': null,
          'connect-src': ["'self'", 'https:'],
          upgradeInsecureRequests: null,
        },
      },
      hsts: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
    });
  });

  it("keeps the project's key order ahead of the defaults' (the CSP header follows it)", () => {
    const security = normalizeMiddlewares([
      { name: 'strapi::security', config: { contentSecurityPolicy: { directives: { 'frame-src': ["'self'"] } } } },
    ]).security as { contentSecurityPolicy: { directives: object } };
    expect(Object.keys(security.contentSecurityPolicy.directives)).toEqual([
      'frame-src',
      'connect-src',
      'img-src',
      'media-src',
      'upgradeInsecureRequests',
    ]);
  });

  it('does not share the defaults between projects', () => {
    const first = normalizeMiddlewares(undefined).security as {
      contentSecurityPolicy: { directives: Record<string, string[]> };
    };
    first.contentSecurityPolicy.directives['img-src']?.push('changed');
    expect(normalizeMiddlewares(undefined).security).toEqual(DEFAULT_SECURITY);
  });

  it('strapi::poweredBy takes its value from config.poweredBy', () => {
    expect(normalizeMiddlewares([{ name: 'strapi::poweredBy', config: { poweredBy: 'Our CMS' } }]).poweredBy).toBe(
      'Our CMS',
    );
  });

  it.each([
    [
      'not an array',
      'strapi::security',
      'config/middlewares: must export an array of middleware names or { name, config } objects, as Strapi expects',
    ],
    [
      'an entry that is a number',
      ['strapi::errors', 3],
      'config/middlewares: must export an array of middleware names or { name, config } objects, as Strapi expects',
    ],
    [
      'a config that is a string',
      [{ name: 'strapi::security', config: 'strict' }],
      'config/middlewares: the config of strapi::security must be an object',
    ],
    [
      'a poweredBy that is not a string',
      [{ name: 'strapi::poweredBy', config: { poweredBy: 1 } }],
      'config/middlewares: strapi::poweredBy "poweredBy" must be a string',
    ],
  ])('%s: a ProjectError', (_label, raw, message) => {
    expect(() => normalizeMiddlewares(raw)).toThrow(new ProjectError(message));
  });

  it("adds the admin preview's origins to frame-src: alone on the string form, after the project's own on the object form", () => {
    const frameSrc = (raw: unknown) =>
      (
        normalizeMiddlewares(raw, ['https://site.example', "'self'"]).security as {
          contentSecurityPolicy: { directives: Record<string, unknown> };
        }
      ).contentSecurityPolicy.directives['frame-src'];
    expect(frameSrc(['strapi::security'])).toEqual(['https://site.example', "'self'"]);
    expect(frameSrc(undefined)).toEqual(['https://site.example', "'self'"]);
    const own = {
      name: 'strapi::security',
      config: { contentSecurityPolicy: { directives: { 'frame-src': ["'self'"] } } },
    };
    expect(frameSrc([own])).toEqual(["'self'", 'https://site.example']);
    expect(normalizeMiddlewares(['strapi::errors'], ['https://site.example']).security).toBeNull();
  });
});
