import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Metadata, OutputInfo, Sharp } from 'sharp';

/** sharp, loaded on the first upload: the server starts without its native library in memory. */
async function loadSharp(): Promise<typeof import('sharp').default> {
  return (await import('sharp')).default;
}

/**
 * The image side of the upload plugin, after Strapi 5's image-manipulation service
 * (`packages/core/upload/server/src/services/image-manipulation.ts`, used by `services/upload.ts`
 * `enhanceAndValidateFile` → `optimize`, then `uploadImage` → `generateThumbnail` +
 * `generateResponsiveFormats`). Every step reads and writes files by path, so sharp streams the
 * original instead of holding it in memory.
 *
 * What the file's content (sharp's `metadata().format`, never the declared MIME type) decides:
 * | format                        | width/height | optimised | thumbnail + breakpoints |
 * |-------------------------------|--------------|-----------|-------------------------|
 * | jpeg, png, webp, tiff         | yes          | yes       | yes                     |
 * | gif                           | yes          | no        | yes                     |
 * | avif                          | yes          | yes       | no                      |
 * | svg                           | yes          | no        | no                      |
 * | anything else, or unreadable  | null         | no        | no                      |
 *
 * Where Cairn departs from Strapi, on purpose:
 * - A file whose header reads as an image but whose pixels do not decode (truncated, corrupt) is
 *   treated as a non-image; Strapi answers 400 `File is not a valid image`.
 * - sharp reports AVIF as `heif` (compression `av1`), so Strapi's `avif` entries never match and
 *   AVIF uploads get no dimensions there; here they are recognised as `avif`.
 * - The re-encoded original is kept only when it is smaller (or was rotated). Strapi means to do
 *   the same but compares with `metadata().size`, which sharp leaves undefined for file input, so
 *   in practice it always keeps the re-encode.
 * - With `autoOrientation` on, an image without an EXIF orientation is not re-encoded just to
 *   rotate it by nothing; a PNG that is only rotated stays lossless (Strapi's `png({ quality: 100 })`
 *   would still quantise it to a palette); optimised JPEGs are progressive.
 * Kept as in Strapi: metadata is stripped (sharp's default, so with `autoOrientation` off an EXIF
 * rotation is lost), derived images are resized from the optimised original with the encoder's
 * defaults (not re-optimised), and animated GIF/WebP keep their frames.
 */

/** What the upload pipeline knows about a stored temp file. */
export interface SourceFile {
  readonly path: string;
  readonly name: string;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly sizeInBytes: number;
}

/** The upload plugin settings that shape image processing (core store `plugin_upload_settings`). */
export interface ImageSettings {
  readonly sizeOptimization: boolean;
  readonly responsiveDimensions: boolean;
  readonly autoOrientation: boolean;
  /** Breakpoint name → longest side in pixels (`plugin::upload.breakpoints`). */
  readonly breakpoints: Readonly<Record<string, number>>;
}

/** One derived image written next to the source (a temp file the caller owns and must delete). */
export interface DerivedImage {
  readonly key: string;
  readonly path: string;
  readonly name: string;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly width: number;
  readonly height: number;
  readonly sizeInBytes: number;
}

/** The outcome of `processImage`. */
export interface ProcessedImage {
  /** The original after optional size optimisation / auto-orientation (may be a new temp path). */
  readonly main: {
    readonly path: string;
    readonly width: number | null;
    readonly height: number | null;
    readonly sizeInBytes: number;
  };
  /** thumbnail, then the breakpoints that apply, largest first (with the defaults: thumbnail, large, medium, small). */
  readonly formats: readonly DerivedImage[];
}

/** Strapi's defaults: settings store `{ sizeOptimization: true, responsiveDimensions: true, autoOrientation: false }`, breakpoints large 1000, medium 750, small 500. */
export const DEFAULT_IMAGE_SETTINGS: ImageSettings = Object.freeze({
  sizeOptimization: true,
  responsiveDimensions: true,
  autoOrientation: false,
  breakpoints: Object.freeze({ large: 1000, medium: 750, small: 500 }),
});

/** Strapi's `size` unit: kilobytes (1000 bytes) rounded to 2 decimals. `886` → `0.89`, `1049` → `1.05`. */
export function bytesToKilobytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}

type ImageFormat = 'jpeg' | 'png' | 'webp' | 'tiff' | 'gif' | 'avif' | 'svg';
type OptimizableFormat = 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif';

/** Strapi's FORMATS_TO_PROCESS, FORMATS_TO_OPTIMIZE and FORMATS_TO_RESIZE. */
const IMAGE_FORMATS: ReadonlySet<string> = new Set<ImageFormat>(['jpeg', 'png', 'webp', 'tiff', 'gif', 'avif', 'svg']);
const OPTIMIZABLE_FORMATS: ReadonlySet<string> = new Set<OptimizableFormat>(['jpeg', 'png', 'webp', 'tiff', 'avif']);
const RESIZABLE_FORMATS: ReadonlySet<string> = new Set<ImageFormat>(['jpeg', 'png', 'webp', 'tiff', 'gif']);
const ANIMATED_FORMATS: ReadonlySet<string> = new Set<ImageFormat>(['gif', 'webp']);

const THUMBNAIL_KEY = 'thumbnail';
const THUMBNAIL_WIDTH = 245;
const THUMBNAIL_HEIGHT = 156;
const OPTIMIZED_QUALITY = 80;
const ORIENTING_QUALITY = 100;

/** A readable image: its format and first-page dimensions as stored (before EXIF orientation). */
interface ImageProbe {
  readonly format: ImageFormat;
  readonly width: number | null;
  readonly height: number | null;
  readonly animated: boolean;
  readonly orientation: number;
}

type MainImage = ProcessedImage['main'];

/**
 * Optimises `file` when it is an image (per `settings`) and writes its thumbnail and responsive
 * formats to `workDir` as `${key}_${hash}${ext}`: thumbnail (fit inside 245×156) when wider than
 * 245 or taller than 156, then each breakpoint smaller than the width or the height (fit inside
 * breakpoint×breakpoint), largest first. 1200×800 → thumbnail 234×156, large 1000×667, medium
 * 750×500, small 500×333. A kept re-encode of the original is `${workDir}/optimized-${hash}${ext}`.
 * Non-images (and unreadable images) come back untouched:
 * `{ main: { path, width: null, height: null, sizeInBytes }, formats: [] }`. Write failures
 * (a missing `workDir`) reject after removing what this call wrote.
 */
export async function processImage(
  file: SourceFile,
  settings: ImageSettings,
  workDir: string,
): Promise<ProcessedImage> {
  const probe = await probeImage(file.path);
  if (probe === null) {
    return { main: { path: file.path, width: null, height: null, sizeInBytes: file.sizeInBytes }, formats: [] };
  }
  const written: string[] = [];
  try {
    const main = await optimizeImage(file, probe, settings, workDir, written);
    const formats = RESIZABLE_FORMATS.has(probe.format)
      ? await writeFormats(file, probe, main, settings, workDir, written)
      : [];
    return { main, formats };
  } catch (error) {
    await Promise.allSettled(written.map((path) => rm(path, { force: true })));
    throw error;
  }
}

/** Strapi's `isImage` + `isFaultyImage`: null unless sharp reads a processable format and decodes its pixels. */
async function probeImage(path: string): Promise<ImageProbe | null> {
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(path).metadata();
  } catch {
    return null;
  }
  const format = imageFormatOf(metadata);
  if (format === null) return null;
  try {
    await sharp(path).stats();
  } catch {
    return null;
  }
  return {
    format,
    width: metadata.width ?? null,
    height: metadata.pageHeight ?? metadata.height ?? null,
    animated: ANIMATED_FORMATS.has(format) && (metadata.pages ?? 1) > 1,
    orientation: metadata.orientation ?? 1,
  };
}

function imageFormatOf(metadata: Metadata): ImageFormat | null {
  if (metadata.format === 'heif') return metadata.compression === 'av1' ? 'avif' : null;
  return IMAGE_FORMATS.has(metadata.format) ? (metadata.format as ImageFormat) : null;
}

async function openImage(path: string, probe: ImageProbe): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(path, { animated: probe.animated });
}

/** The page height of what sharp wrote (an animated image is written as stacked frames). */
function outputDimensions(info: OutputInfo): { width: number; height: number } {
  return { width: info.width, height: info.pageHeight ?? info.height };
}

/** Strapi's `optimize`: re-encode in the same format (quality 80, or 100 when only orienting), EXIF-rotated when asked. */
async function optimizeImage(
  file: SourceFile,
  probe: ImageProbe,
  settings: ImageSettings,
  workDir: string,
  written: string[],
): Promise<MainImage> {
  const unchanged: MainImage = {
    path: file.path,
    width: probe.width,
    height: probe.height,
    sizeInBytes: file.sizeInBytes,
  };
  const rotate = settings.autoOrientation && probe.orientation > 1;
  if (!isOptimizable(probe.format) || !(settings.sizeOptimization || rotate)) return unchanged;

  const target = join(workDir, `optimized-${file.hash}${file.ext}`);
  written.push(target);
  const pipeline = await openImage(file.path, probe);
  if (rotate) pipeline.rotate();
  const info = await reencode(pipeline, probe.format, settings.sizeOptimization).toFile(target);
  if (rotate || info.size < file.sizeInBytes) {
    return { path: target, ...outputDimensions(info), sizeInBytes: info.size };
  }
  written.pop();
  await rm(target, { force: true });
  return unchanged;
}

function isOptimizable(format: ImageFormat): format is OptimizableFormat {
  return OPTIMIZABLE_FORMATS.has(format);
}

function reencode(pipeline: Sharp, format: OptimizableFormat, sizeOptimization: boolean): Sharp {
  const quality = sizeOptimization ? OPTIMIZED_QUALITY : ORIENTING_QUALITY;
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg(sizeOptimization ? { quality, progressive: true } : { quality });
    case 'png':
      return pipeline.png(sizeOptimization ? { quality } : {});
    case 'webp':
      return pipeline.webp({ quality });
    case 'tiff':
      return pipeline.tiff({ quality });
    case 'avif':
      return pipeline.avif({ quality });
  }
}

/** The thumbnail, then the breakpoints smaller than the image, largest first (Strapi's `uploadImage`). */
async function writeFormats(
  file: SourceFile,
  probe: ImageProbe,
  main: MainImage,
  settings: ImageSettings,
  workDir: string,
  written: string[],
): Promise<DerivedImage[]> {
  const { width, height } = main;
  if (width === null || height === null) return [];
  const formats: DerivedImage[] = [];
  if (width > THUMBNAIL_WIDTH || height > THUMBNAIL_HEIGHT) {
    formats.push(
      await writeFormat(file, probe, main.path, THUMBNAIL_KEY, THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT, workDir, written),
    );
  }
  if (!settings.responsiveDimensions) return formats;
  for (const [key, size] of applicableBreakpoints(settings.breakpoints, width, height)) {
    formats.push(await writeFormat(file, probe, main.path, key, size, size, workDir, written));
  }
  return formats;
}

/**
 * Breakpoints below the width or the height, largest first (equal sizes keep their configured
 * order). A breakpoint named `thumbnail` or with a size that is not a positive integer is skipped;
 * Strapi would race two writes to the same `thumbnail_` file.
 */
function applicableBreakpoints(
  breakpoints: Readonly<Record<string, number>>,
  width: number,
  height: number,
): [string, number][] {
  return Object.entries(breakpoints)
    .filter(
      ([key, size]) => key !== THUMBNAIL_KEY && Number.isInteger(size) && size > 0 && (size < width || size < height),
    )
    .sort(([, a], [, b]) => b - a);
}

/** Strapi's `resizeFileTo`: fit inside `maxWidth`×`maxHeight`, same format with the encoder's defaults. */
async function writeFormat(
  file: SourceFile,
  probe: ImageProbe,
  sourcePath: string,
  key: string,
  maxWidth: number,
  maxHeight: number,
  workDir: string,
  written: string[],
): Promise<DerivedImage> {
  const hash = `${key}_${file.hash}`;
  const path = join(workDir, `${hash}${file.ext}`);
  written.push(path);
  const info = await (
    await openImage(sourcePath, probe)
  )
    .resize({ width: maxWidth, height: maxHeight, fit: 'inside', withoutEnlargement: true })
    .toFormat(probe.format)
    .toFile(path);
  return {
    key,
    path,
    name: `${key}_${file.name}`,
    hash,
    ext: file.ext,
    mime: file.mime,
    ...outputDimensions(info),
    sizeInBytes: info.size,
  };
}
