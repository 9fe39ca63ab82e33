import { isAbsolute, resolve } from 'node:path';
import { ProjectError } from '../core/errors.js';
import { missingProviderPolicy, type MissingProviderPolicy } from './missing-provider.js';

/** `config/plugins` → `upload.config`, validated, with Strapi's defaults. */
export interface UploadConfig {
  /**
   * The storage provider as written (`local`, `aws-s3`, `@strapi/provider-upload-cloudinary`…),
   * the name stored in each file's `provider` column; Cairn ships `local` (files under
   * `public/uploads`), any other is loaded from the project's `node_modules`.
   */
  readonly provider: string;
  /** Handed to the provider's `init`. */
  readonly providerOptions: Readonly<Record<string, unknown>>;
  /** Per provider method (`upload`, `uploadStream`, `delete`, `getSignedUrl`…): its second argument. */
  readonly actionOptions: Readonly<Record<string, unknown>>;
  /**
   * Cairn's `missingProvider`: `fail` (default) stops the start when the provider package is not
   * installed; `fallback` starts anyway, storing new files with the local provider.
   */
  readonly missingProvider: MissingProviderPolicy;
  /** Largest accepted file, in bytes (`sizeLimit`; 200 MB by default, koa-body's own limit). */
  readonly sizeLimitBytes: number;
  /** Responsive format breakpoints, largest first (`breakpoints`; large 1000, medium 750, small 500). */
  readonly breakpoints: Readonly<Record<string, number>>;
  /** `security.allowedTypes`: MIME patterns (`image/*`); null accepts every type not denied. */
  readonly allowedTypes: readonly string[] | null;
  /** `security.deniedTypes`: MIME patterns always refused. */
  readonly deniedTypes: readonly string[];
  /** The folder served at `/` (`server.dirs.public`, `public` by default), absolute. */
  readonly publicDir: string;
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
const WHERE = 'config/plugins: upload';
const DEFAULT_SIZE_LIMIT = 200 * 1024 * 1024;
const DEFAULT_BREAKPOINTS = { large: 1000, medium: 750, small: 500 };

/** Reads `upload.config` (and `server.dirs.public`) for project folder `dir`. */
export function normalizeUploadConfig(raw: unknown, server: unknown, dir: string): UploadConfig {
  const config = obj(raw);
  const security = obj(config.security);
  const provider = config.provider ?? 'local';
  if (typeof provider !== 'string' || provider.trim() === '') {
    throw new ProjectError(
      `${WHERE} "provider" must be a package name such as "aws-s3", got ${JSON.stringify(provider)}`,
    );
  }
  const providerOptions = objectOption(config.providerOptions, 'providerOptions');
  const actionOptions = objectOption(config.actionOptions, 'actionOptions');
  const sizeLimit = config.sizeLimit ?? providerOptions.sizeLimit ?? DEFAULT_SIZE_LIMIT;
  if (typeof sizeLimit !== 'number' || !Number.isSafeInteger(sizeLimit) || sizeLimit < 1) {
    throw new ProjectError(`${WHERE} "sizeLimit" must be a positive number of bytes, got ${JSON.stringify(sizeLimit)}`);
  }
  const breakpoints = config.breakpoints === undefined ? DEFAULT_BREAKPOINTS : obj(config.breakpoints);
  for (const [name, width] of Object.entries(breakpoints)) {
    if (!/^\w+$/.test(name) || typeof width !== 'number' || !Number.isInteger(width) || width < 1) {
      throw new ProjectError(
        `${WHERE} breakpoint ${JSON.stringify(name)} must be a word mapping to a positive width in pixels, got ${JSON.stringify(width)}`,
      );
    }
  }
  const publicSetting = obj(obj(server).dirs).public;
  const publicDir = typeof publicSetting === 'string' ? publicSetting : 'public';
  return {
    provider,
    providerOptions,
    actionOptions,
    missingProvider: missingProviderPolicy(config.missingProvider, WHERE),
    sizeLimitBytes: sizeLimit,
    breakpoints: Object.fromEntries(
      Object.entries(breakpoints as Record<string, number>).sort(([, a], [, b]) => b - a),
    ),
    allowedTypes: security.allowedTypes === undefined ? null : typeList(security.allowedTypes, 'security.allowedTypes'),
    deniedTypes: security.deniedTypes === undefined ? [] : typeList(security.deniedTypes, 'security.deniedTypes'),
    publicDir: isAbsolute(publicDir) ? publicDir : resolve(dir, publicDir),
  };
}

function typeList(value: unknown, key: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && /^[\w.+-]+\/[\w.+*-]+$/.test(item))) {
    throw new ProjectError(
      `${WHERE} "${key}" must be an array of MIME types or patterns such as "image/*", got ${JSON.stringify(value)}`,
    );
  }
  return value as string[];
}

function objectOption(value: unknown, key: string): Obj {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ProjectError(`${WHERE} "${key}" must be an object, got ${JSON.stringify(value)}`);
  return value as Obj;
}
