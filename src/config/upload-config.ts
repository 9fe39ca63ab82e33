import { isAbsolute, resolve } from 'node:path';
import { ProjectError } from '../core/errors.js';

/** `config/plugins` → `upload.config`, validated, with Strapi's defaults. */
export interface UploadConfig {
  /** The storage provider; Cairn ships `local` (files under `public/uploads`). */
  readonly provider: 'local';
  readonly providerOptions: Readonly<Record<string, unknown>>;
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
  if (provider !== 'local' && provider !== '@strapi/provider-upload-local') {
    throw new ProjectError(
      `${WHERE} provider ${JSON.stringify(provider)} is not supported by Cairn; remove it to store files in public/uploads`,
    );
  }
  const providerOptions = obj(config.providerOptions);
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
    provider: 'local',
    providerOptions,
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
