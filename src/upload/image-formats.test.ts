import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesToKilobytes,
  DEFAULT_IMAGE_SETTINGS,
  processImage,
  type ImageSettings,
  type SourceFile,
} from './image-formats.js';

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-image-formats-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fresh work directory per case, so names never collide. */
async function workDir(): Promise<string> {
  return mkdtemp(join(dir, 'work-'));
}

type Encode = (image: Sharp) => Sharp;

/**
 * An RGB gradient with a little deterministic noise, so re-encoding has something to compress
 * (pure noise would make libimagequant take seconds per PNG).
 */
function gradient(width: number, height: number): Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 2463534242;
  for (let i = 0; i < pixels.length; i += 1) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const pixel = Math.floor(i / 3);
    const channel = i % 3;
    const base =
      channel === 0
        ? ((pixel % width) * 255) / width
        : channel === 1
          ? (Math.floor(pixel / width) * 255) / height
          : 128;
    pixels[i] = Math.max(0, Math.min(255, Math.round(base + ((seed >>> 0) % 17) - 8)));
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

/** A gradient image encoded by `encode`, written to the temp dir. */
async function imageFile(
  width: number,
  height: number,
  ext: string,
  mime: string,
  encode: Encode,
): Promise<SourceFile> {
  const base = `photo${++counter}`;
  const path = join(dir, `${base}${ext}`);
  await encode(gradient(width, height)).toFile(path);
  return source(path, `${base}${ext}`, `${base}_a1b2c3d4e5`, ext, mime);
}

async function source(path: string, name: string, hash: string, ext: string, mime: string): Promise<SourceFile> {
  return { path, name, hash, ext, mime, sizeInBytes: (await stat(path)).size };
}

const png = (width: number, height: number) => imageFile(width, height, '.png', 'image/png', (image) => image.png());
const jpeg = (width: number, height: number) =>
  imageFile(width, height, '.jpg', 'image/jpeg', (image) => image.jpeg({ quality: 100 }));

const settings = (overrides: Partial<ImageSettings> = {}): ImageSettings => ({
  ...DEFAULT_IMAGE_SETTINGS,
  ...overrides,
});
const dimensions = (formats: readonly { key: string; width: number; height: number }[]) =>
  formats.map(({ key, width, height }) => `${key} ${width}×${height}`);

describe('processImage: formats', () => {
  it('1200×800 PNG → thumbnail 234×156, large 1000×667, medium 750×500, small 500×333, with Strapi names', async () => {
    const file = await png(1200, 800);
    const work = await workDir();
    const { main, formats } = await processImage(file, settings(), work);

    expect(main.width).toBe(1200);
    expect(main.height).toBe(800);
    expect(dimensions(formats)).toEqual(['thumbnail 234×156', 'large 1000×667', 'medium 750×500', 'small 500×333']);
    for (const format of formats) {
      expect(format).toMatchObject({
        name: `${format.key}_${file.name}`,
        hash: `${format.key}_${file.hash}`,
        ext: '.png',
        mime: 'image/png',
        path: join(work, `${format.key}_${file.hash}.png`),
      });
    }
  });

  it('every derived image exists with the reported size, dimensions and the source format', async () => {
    const file = await png(1200, 800);
    const { formats } = await processImage(file, settings({ sizeOptimization: false }), await workDir());
    expect(formats).toHaveLength(4);
    for (const format of formats) {
      expect((await stat(format.path)).size).toBe(format.sizeInBytes);
      const metadata = await sharp(format.path).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', format.width, format.height]);
    }
  });

  it('600×400 → thumbnail 234×156 and small 500×333 only', async () => {
    const { formats } = await processImage(await png(600, 400), settings(), await workDir());
    expect(dimensions(formats)).toEqual(['thumbnail 234×156', 'small 500×333']);
  });

  it('320×240 JPEG → thumbnail 208×156 only', async () => {
    const { main, formats } = await processImage(await jpeg(320, 240), settings(), await workDir());
    expect([main.width, main.height]).toEqual([320, 240]);
    expect(dimensions(formats)).toEqual(['thumbnail 208×156']);
    expect(formats[0]).toMatchObject({ ext: '.jpg', mime: 'image/jpeg' });
  });

  it('64×64 → dimensions but no formats', async () => {
    const { main, formats } = await processImage(await png(64, 64), settings(), await workDir());
    expect([main.width, main.height]).toEqual([64, 64]);
    expect(formats).toEqual([]);
  });

  it('a thumbnail only when wider than 245 or taller than 156 (strictly)', async () => {
    const exact = await processImage(await png(245, 156), settings(), await workDir());
    expect(exact.formats).toEqual([]);
    const tall = await processImage(await png(100, 157), settings(), await workDir());
    expect(dimensions(tall.formats)).toEqual(['thumbnail 99×156']);
  });

  it('a breakpoint applies to the longer side too: 400×1200 portrait', async () => {
    const { formats } = await processImage(
      await png(400, 1200),
      settings({ sizeOptimization: false }),
      await workDir(),
    );
    expect(dimensions(formats)).toEqual(['thumbnail 52×156', 'large 333×1000', 'medium 250×750', 'small 167×500']);
  });

  it('responsiveDimensions off → only the thumbnail', async () => {
    const { formats } = await processImage(
      await png(1200, 800),
      settings({ responsiveDimensions: false, sizeOptimization: false }),
      await workDir(),
    );
    expect(dimensions(formats)).toEqual(['thumbnail 234×156']);
  });

  it('custom breakpoints come largest first, whatever their configured order', async () => {
    const breakpoints = { xsmall: 64, large: 1000, xlarge: 1100, small: 500 };
    const { formats } = await processImage(
      await png(1200, 800),
      settings({ breakpoints, sizeOptimization: false }),
      await workDir(),
    );
    expect(formats.map((format) => format.key)).toEqual(['thumbnail', 'xlarge', 'large', 'small', 'xsmall']);
  });

  it('a breakpoint named thumbnail does not replace the thumbnail', async () => {
    const { formats } = await processImage(
      await png(1200, 800),
      settings({ breakpoints: { thumbnail: 300, small: 500 }, sizeOptimization: false }),
      await workDir(),
    );
    expect(dimensions(formats)).toEqual(['thumbnail 234×156', 'small 500×333']);
  });
});

describe('processImage: what counts as an image', () => {
  it('a text file → width/height null, no formats, path and size untouched', async () => {
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'hello, not an image\n');
    const file = await source(path, 'notes.txt', 'notes_a1b2c3d4e5', '.txt', 'text/plain');
    expect(await processImage(file, settings(), await workDir())).toEqual({
      main: { path, width: null, height: null, sizeInBytes: file.sizeInBytes },
      formats: [],
    });
  });

  it('a .png declared image/png that holds text → treated as a non-image', async () => {
    const path = join(dir, 'fake.png');
    await writeFile(path, 'just text pretending to be a png');
    const file = await source(path, 'fake.png', 'fake_a1b2c3d4e5', '.png', 'image/png');
    const result = await processImage(file, settings(), await workDir());
    expect(result).toEqual({ main: { path, width: null, height: null, sizeInBytes: file.sizeInBytes }, formats: [] });
  });

  it('a truncated PNG (header readable, pixels not) → treated as a non-image, not an error', async () => {
    const whole = await sharp({
      create: {
        width: 800,
        height: 600,
        channels: 3,
        background: '#369',
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .png()
      .toBuffer();
    const path = join(dir, 'truncated.png');
    await writeFile(path, whole.subarray(0, whole.length >> 1));
    const file = await source(path, 'truncated.png', 'truncated_a1b2c3d4e5', '.png', 'image/png');
    const work = await workDir();
    const result = await processImage(file, settings(), work);
    expect(result).toEqual({ main: { path, width: null, height: null, sizeInBytes: file.sizeInBytes }, formats: [] });
  });

  it('decides by content: a JPEG named .png gets formats, written as JPEG under the declared ext and mime', async () => {
    const file = await imageFile(600, 400, '.png', 'image/png', (image) => image.jpeg());
    const { formats } = await processImage(file, settings(), await workDir());
    expect(dimensions(formats)).toEqual(['thumbnail 234×156', 'small 500×333']);
    expect(formats[0]).toMatchObject({ ext: '.png', mime: 'image/png' });
    expect((await sharp(formats[0]!.path).metadata()).format).toBe('jpeg');
  });

  it('SVG → dimensions, no formats, never re-encoded', async () => {
    const path = join(dir, 'logo.svg');
    await writeFile(
      path,
      '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="#c33"/></svg>',
    );
    const file = await source(path, 'logo.svg', 'logo_a1b2c3d4e5', '.svg', 'image/svg+xml');
    expect(await processImage(file, settings(), await workDir())).toEqual({
      main: { path, width: 600, height: 400, sizeInBytes: file.sizeInBytes },
      formats: [],
    });
  });

  it('AVIF (sharp says heif/av1) → dimensions, optimisable, but no formats', async () => {
    const file = await imageFile(600, 400, '.avif', 'image/avif', (image) => image.avif({ quality: 100 }));
    const { main, formats } = await processImage(file, settings({ sizeOptimization: false }), await workDir());
    expect(main).toEqual({ path: file.path, width: 600, height: 400, sizeInBytes: file.sizeInBytes });
    expect(formats).toEqual([]);
  });

  it('GIF → formats but no optimisation', async () => {
    const file = await imageFile(600, 400, '.gif', 'image/gif', (image) => image.gif());
    const { main, formats } = await processImage(file, settings(), await workDir());
    expect(main).toEqual({ path: file.path, width: 600, height: 400, sizeInBytes: file.sizeInBytes });
    expect(dimensions(formats)).toEqual(['thumbnail 234×156', 'small 500×333']);
  });

  it('animated GIF → per-frame dimensions, frames kept in the formats', async () => {
    const frames = await Promise.all(
      ['#f00', '#0f0', '#00f'].map((background) =>
        sharp({ create: { width: 600, height: 400, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const path = join(dir, 'anim.gif');
    await sharp(frames, { join: { animated: true } })
      .gif()
      .toFile(path);
    const file = await source(path, 'anim.gif', 'anim_a1b2c3d4e5', '.gif', 'image/gif');
    const { main, formats } = await processImage(file, settings(), await workDir());
    expect([main.width, main.height]).toEqual([600, 400]);
    expect(dimensions(formats)).toEqual(['thumbnail 234×156', 'small 500×333']);
    const thumbnail = await sharp(formats[0]!.path, { animated: true }).metadata();
    expect([thumbnail.pages, thumbnail.pageHeight]).toEqual([3, 156]);
  });
});

describe('processImage: optimisation and orientation', () => {
  it('sizeOptimization keeps a smaller re-encode as a new temp file', async () => {
    const file = await jpeg(1200, 800);
    const work = await workDir();
    const { main, formats } = await processImage(file, settings(), work);
    expect(main.path).toBe(join(work, `optimized-${file.hash}.jpg`));
    expect(main.sizeInBytes).toBeLessThan(file.sizeInBytes);
    expect((await stat(main.path)).size).toBe(main.sizeInBytes);
    expect([main.width, main.height]).toEqual([1200, 800]);
    expect(formats).toHaveLength(4);
  });

  it('sizeOptimization keeps the original when the re-encode is not smaller', async () => {
    const file = await imageFile(600, 400, '.jpg', 'image/jpeg', (image) => image.jpeg({ quality: 5 }));
    const work = await workDir();
    const { main } = await processImage(file, settings(), work);
    expect(main).toEqual({ path: file.path, width: 600, height: 400, sizeInBytes: file.sizeInBytes });
    await expect(stat(join(work, `optimized-${file.hash}.jpg`))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('sizeOptimization on a PNG keeps the smaller (palette-quantised) PNG', async () => {
    const file = await png(800, 600);
    const work = await workDir();
    const { main } = await processImage(file, settings(), work);
    expect(main.path).toBe(join(work, `optimized-${file.hash}.png`));
    expect(main.sizeInBytes).toBeLessThan(file.sizeInBytes);
    expect((await sharp(main.path).metadata()).format).toBe('png');
  });

  it('sizeOptimization off → the original path and size', async () => {
    const file = await jpeg(1200, 800);
    const { main } = await processImage(file, settings({ sizeOptimization: false }), await workDir());
    expect(main).toEqual({ path: file.path, width: 1200, height: 800, sizeInBytes: file.sizeInBytes });
  });

  it('EXIF orientation 6 with autoOrientation on → rotated: width and height swap, formats follow', async () => {
    const file = await imageFile(400, 300, '.jpg', 'image/jpeg', (image) =>
      image.jpeg({ quality: 90 }).withMetadata({ orientation: 6 }),
    );
    const { main, formats } = await processImage(
      file,
      settings({ autoOrientation: true, sizeOptimization: false }),
      await workDir(),
    );
    expect([main.width, main.height]).toEqual([300, 400]);
    expect(main.path).not.toBe(file.path);
    expect((await sharp(main.path).metadata()).orientation).toBeUndefined();
    expect(dimensions(formats)).toEqual(['thumbnail 117×156']);
  });

  it('EXIF orientation 6 with autoOrientation off → stored dimensions, as Strapi', async () => {
    const file = await imageFile(400, 300, '.jpg', 'image/jpeg', (image) =>
      image.jpeg({ quality: 90 }).withMetadata({ orientation: 6 }),
    );
    const { main } = await processImage(file, settings({ sizeOptimization: false }), await workDir());
    expect(main).toEqual({ path: file.path, width: 400, height: 300, sizeInBytes: file.sizeInBytes });
  });

  it('autoOrientation on an image without an orientation leaves it as is', async () => {
    const file = await jpeg(400, 300);
    const { main } = await processImage(
      file,
      settings({ autoOrientation: true, sizeOptimization: false }),
      await workDir(),
    );
    expect(main.path).toBe(file.path);
  });
});

describe('processImage: failures', () => {
  it('a missing workDir rejects: an I/O error, not a content problem', async () => {
    const file = await png(600, 400);
    await expect(processImage(file, settings(), join(dir, 'does-not-exist'))).rejects.toThrow();
  });

  it('a failed write removes the files this call already wrote', async () => {
    const file = await jpeg(1200, 800);
    const work = await workDir();
    await mkdir(join(work, `medium_${file.hash}.jpg`));
    await expect(processImage(file, settings(), work)).rejects.toThrow();
    expect(await readdir(work)).toEqual([`medium_${file.hash}.jpg`]);
  });
});

describe('bytesToKilobytes', () => {
  it.each([
    [886, 0.89],
    [1049, 1.05],
    [0, 0],
    [1000, 1],
    [123456, 123.46],
  ])('%d bytes → %d KB', (bytes, kilobytes) => {
    expect(bytesToKilobytes(bytes)).toBe(kilobytes);
  });
});
