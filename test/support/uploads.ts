import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import { bytesToKilobytes } from '../../src/upload/image-formats.js';
import { uploadBody, type UploadForm } from './multipart.js';
import { countRows } from './row-counts.js';
import { dbStep, substitute, type Step, type Vars } from './scenario.js';
import { DOC, ID, TS } from './shapes.js';
import type { TestServer } from './test-server.js';

/* The upload scenarios' images (generated with sharp), expected file shapes, and checks of what the local provider stored. */

/**
 * A test image: for JPEG, an RGB gradient with a little deterministic noise; for PNG, the gradient
 * in 8 steps per axis over a 16-pixel checker (128 colours). Strapi's size optimisation
 * re-encodes PNGs with a palette (libimagequant), which takes over half a second on a smooth
 * 1200×800 gradient and seconds on a noisy one; on 128 colours it takes about 0.1 s.
 */
export async function gradientImage(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 2463534242 ^ (width * 31 + height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      if (format === 'png') {
        pixels[i] = Math.floor((x * 8) / width) * 36;
        pixels[i + 1] = Math.floor((y * 8) / height) * 36;
        pixels[i + 2] = ((x >> 4) + (y >> 4)) % 2 ? 160 : 96;
        continue;
      }
      for (let channel = 0; channel < 3; channel += 1) {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        const base = channel === 0 ? (x * 255) / width : channel === 1 ? (y * 255) / height : 128;
        pixels[i + channel] = Math.max(0, Math.min(255, Math.round(base + ((seed >>> 0) % 9) - 4)));
      }
    }
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 95 }).toBuffer();
}

/** The images the upload scenarios send. */
export interface TestImages {
  /** 1200×800 PNG: thumbnail 234×156, large 1000×667, medium 750×500, small 500×333. */
  readonly png1200: Buffer;
  /** 1200×800 JPEG: the same four formats. */
  readonly jpeg1200: Buffer;
  /** 600×400 PNG: thumbnail 234×156 and small 500×333. */
  readonly png600: Buffer;
  /** 320×240 JPEG: thumbnail 208×156 only. */
  readonly jpeg320: Buffer;
  /** 64×64 PNG: below the thumbnail's size, no formats. */
  readonly png64: Buffer;
  /** 750×500 PNG: thumbnail and small; no medium (a breakpoint must be smaller than a side). */
  readonly png750: Buffer;
  /** 400×800 PNG (portrait): thumbnail 78×156, medium 375×750 and small 250×500, chosen by the height. */
  readonly portrait: Buffer;
}

/** Generates the test images (about 0.2 s). */
export async function testImages(): Promise<TestImages> {
  const [png1200, jpeg1200, png600, jpeg320, png64, png750, portrait] = await Promise.all([
    gradientImage(1200, 800, 'png'),
    gradientImage(1200, 800, 'jpeg'),
    gradientImage(600, 400, 'png'),
    gradientImage(320, 240, 'jpeg'),
    gradientImage(64, 64, 'png'),
    gradientImage(750, 500, 'png'),
    gradientImage(400, 800, 'png'),
  ]);
  return { png1200, jpeg1200, png600, jpeg320, png64, png750, portrait };
}

/** A small text file (44 bytes: `size` 0.04). */
export const NOTES = Buffer.from('Cairn upload test: a small plain text file.\n');

/** Strapi's key order of a file in the upload API's answers. */
export const FILE_KEYS = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'focalPoint',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'isUrlSigned',
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `<slug>_<10 hex>`: Strapi's file hash. */
export const hashOf = (slug: string) => expect.stringMatching(new RegExp(`^${escape(slug)}_[0-9a-f]{10}$`));
/** `/uploads/<slug>_<10 hex><ext>`. */
export const urlOf = (slug: string, ext: string) =>
  expect.stringMatching(new RegExp(`^/uploads/${escape(slug)}_[0-9a-f]{10}${escape(ext)}$`));

/** What a file's expected shape depends on. */
export interface FileShape {
  readonly name: string;
  /** The hash's slug (`notes_a` for `notes-a.txt`). */
  readonly slug: string;
  readonly ext: string;
  readonly mime: string;
  readonly width?: number | null;
  readonly height?: number | null;
  /** Format key → [width, height], in Strapi's order (thumbnail, then largest breakpoint first). */
  readonly formats?: Readonly<Record<string, readonly [number, number]>> | null;
  readonly alternativeText?: string | null;
  readonly caption?: string | null;
  /** Any number unless given. */
  readonly size?: unknown;
  readonly id?: unknown;
  readonly documentId?: unknown;
}

/** One derived image in `formats`: `thumbnail_<name>`, hash `thumbnail_<slug>_<hex>`, path null. */
export function formatShape(
  key: string,
  file: Pick<FileShape, 'name' | 'slug' | 'ext' | 'mime'>,
  width: number,
  height: number,
): Record<string, unknown> {
  return {
    name: `${key}_${file.name}`,
    hash: hashOf(`${key}_${file.slug}`),
    ext: file.ext,
    mime: file.mime,
    path: null,
    width,
    height,
    size: expect.any(Number),
    sizeInBytes: expect.any(Number),
    url: urlOf(`${key}_${file.slug}`, file.ext),
  };
}

/** A file as populated inside a document: Strapi's keys, no `isUrlSigned`. */
export function populatedFile(file: FileShape): Record<string, unknown> {
  const formats = file.formats
    ? Object.fromEntries(
        Object.entries(file.formats).map(([key, [width, height]]) => [key, formatShape(key, file, width, height)]),
      )
    : null;
  return {
    id: file.id ?? ID,
    documentId: file.documentId ?? DOC,
    name: file.name,
    alternativeText: file.alternativeText ?? null,
    caption: file.caption ?? null,
    focalPoint: null,
    width: file.width ?? null,
    height: file.height ?? null,
    formats,
    hash: hashOf(file.slug),
    ext: file.ext,
    mime: file.mime,
    size: file.size ?? expect.any(Number),
    url: urlOf(file.slug, file.ext),
    previewUrl: null,
    provider: 'local',
    provider_metadata: null,
    createdAt: TS,
    updatedAt: TS,
    publishedAt: TS,
  };
}

/** A file as the upload API answers it: the populated shape and `isUrlSigned: false`. */
export const uploadedFile = (file: FileShape): Record<string, unknown> => ({
  ...populatedFile(file),
  isUrlSigned: false,
});

/** The formats of a 1200×800 image and of a 600×400 one (breakpoints 1000/750/500). */
export const FORMATS_1200 = {
  thumbnail: [234, 156],
  large: [1000, 667],
  medium: [750, 500],
  small: [500, 333],
} as const;
export const FORMATS_600 = { thumbnail: [234, 156], small: [500, 333] } as const;

/** A POST /api/upload step sending `form` (its strings may hold `{{var}}`), or another path such as `/api/upload?id={{x}}`. */
export function uploadStep(
  name: string,
  form: UploadForm,
  expectation: Omit<Step, 'name' | 'payload' | 'path'> & { readonly path?: string },
): Step {
  return {
    method: 'POST',
    ...expectation,
    name,
    path: expectation.path ?? '/api/upload',
    payload: (vars: Vars) => uploadBody(substitute(form, vars)),
  };
}

/** The local provider's folder of a test server. */
export const uploadsDir = (server: TestServer) => join(server.dir, 'public', 'uploads');

/** The stored objects under public/uploads (the .tmp work folder left out), sorted. */
export function storedNames(server: TestServer): string[] {
  const dir = uploadsDir(server);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name !== '.tmp')
        .sort()
    : [];
}

/** Entries left in the upload work folder (public/uploads/.tmp), recursively. */
export function tempLeftovers(server: TestServer): string[] {
  const dir = join(uploadsDir(server), '.tmp');
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
}

/** The object names a file answer refers to: its own and its formats' (`wide_ab….png`, `thumbnail_wide_ab….png`, …). */
export function objectNames(file: { url: string; formats: Record<string, { url: string }> | null }): string[] {
  return [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)]
    .map((url) => url.replace(/^\/uploads\//, ''))
    .sort();
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

interface StoredObject {
  readonly url: string;
  readonly mime: string;
  readonly width: number | null;
  readonly height: number | null;
}

/**
 * A file answer's objects really are on disk under public/uploads: `size` (KB) and each format's
 * `sizeInBytes` are the stored sizes, images have the dimensions announced, and GET on each url
 * serves the stored bytes with the file's type.
 */
export async function expectStored(
  server: TestServer,
  file: StoredObject & { size: number; formats: Record<string, StoredObject & { sizeInBytes: number }> | null },
): Promise<void> {
  const check = async (object: StoredObject) => {
    const path = join(uploadsDir(server), object.url.replace(/^\/uploads\//, ''));
    expect(existsSync(path), `${object.url} is stored`).toBe(true);
    const bytes = readFileSync(path);
    if (object.width !== null) {
      const metadata = await sharp(bytes).metadata();
      expect([metadata.width, metadata.height], `${object.url} dimensions`).toEqual([object.width, object.height]);
    }
    const served = await server.request('GET', object.url);
    expect(served.status, `GET ${object.url}`).toBe(200);
    expect(String(served.headers['content-type']), `GET ${object.url} type`).toContain(object.mime);
    expect(sha256(served.bytes), `GET ${object.url} bytes`).toBe(sha256(bytes));
    return bytes.length;
  };
  expect(file.size).toBe(bytesToKilobytes(await check(file)));
  for (const format of Object.values(file.formats ?? {})) expect(format.sizeInBytes).toBe(await check(format));
}

/** The row counts an upload touches. */
export async function uploadCounts(
  server: TestServer,
): Promise<{ files: number; links: number; objects: number; temp: number }> {
  return {
    files: await countRows(server, 'files'),
    links: await countRows(server, 'files_related_mph'),
    objects: storedNames(server).length,
    temp: tempLeftovers(server).length,
  };
}

/** Saves the counts as `vars[as]` (files rows, media links, stored objects, temp entries). */
export const saveUploadCounts = (name: string, as: string): Step =>
  dbStep(name, async ({ vars, server }) => {
    vars[as] = await uploadCounts(server);
  });

/** The counts moved by exactly `delta` since `vars[base]`; the temp folder is always empty. */
export function expectUploadCounts(
  name: string,
  base: string,
  delta: Partial<{ files: number; links: number; objects: number }> = {},
): Step {
  return dbStep(name, async ({ vars, server }) => {
    const before = vars[base] as { files: number; links: number; objects: number };
    expect(await uploadCounts(server)).toEqual({
      files: before.files + (delta.files ?? 0),
      links: before.links + (delta.links ?? 0),
      objects: before.objects + (delta.objects ?? 0),
      temp: 0,
    });
  });
}

/** A media change as its webhook event names it: `{ event: 'media.create', createdAt, media }`. */
interface MediaEvent {
  readonly event: string;
  readonly createdAt: string;
  readonly media: unknown;
}

/** Starts recording the server's media changes into `vars.events` (document changes are left out). */
export const recordEvents = (): Step =>
  dbStep('record the media changes of the change bus', ({ vars, server }) => {
    const events: MediaEvent[] = [];
    vars.events = events;
    server.app.changes.subscribe({
      changed(change) {
        if (change.subject === 'media') {
          events.push({ event: `media.${change.kind}`, createdAt: change.at.toISOString(), media: change.file });
        }
      },
    });
  });

/** The events since the last check are exactly these (built from the saved values), then forgotten. */
export function expectEvents(name: string, expected: (vars: Vars) => unknown[]): Step {
  return dbStep(name, ({ vars }) => {
    const events = vars.events as MediaEvent[];
    expect(events).toEqual(expected(vars));
    events.length = 0;
  });
}

/** `config/plugins.js` as the example's, with `upload.config` replaced by `upload`. */
export function pluginsFile(upload: Readonly<Record<string, unknown>>): string {
  const config = {
    'users-permissions': { config: { jwtManagement: 'refresh', sessions: { httpOnly: true } } },
    upload: { config: upload },
    i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } },
  };
  return `module.exports = () => (${JSON.stringify(config, null, 2)});\n`;
}

/** Size in bytes of a stored object. */
export const storedSize = (server: TestServer, url: string) =>
  statSync(join(uploadsDir(server), url.replace(/^\/uploads\//, ''))).size;
