import { copyFile, mkdir, rename, unlink } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { UploadProvider } from './upload-provider.js';

/**
 * Strapi's local provider: files live in `<public>/uploads/<hash><ext>` and are served at
 * `/uploads/<hash><ext>`. Names come from `fileHash`/`safeExtension`; any name that would
 * resolve outside the folder is refused all the same. `name` is what the rows record (`local`, or
 * `@strapi/provider-upload-local` when the config names it so).
 */
export function createLocalProvider(publicDir: string, name = 'local'): UploadProvider {
  const folder = resolve(publicDir, 'uploads');
  const target = (hash: string, ext: string) => {
    const path = resolve(folder, `${hash}${ext}`);
    const inside = relative(folder, path);
    if (inside === '' || inside.startsWith('..') || inside.includes('/') || inside.includes('\\'))
      throw new Error(`refusing to store "${hash}${ext}" outside ${folder}`);
    return path;
  };
  return {
    name,
    async upload(file) {
      await mkdir(folder, { recursive: true });
      const path = target(file.hash, file.ext);
      try {
        await rename(file.path, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await copyFile(file.path, path);
      }
      return { url: `/uploads/${file.hash}${file.ext}`, providerMetadata: null };
    },
    checkFileSize: async () => undefined,
    isPrivate: async () => false,
    signedUrl: async (object) => object.url,
    async delete(file) {
      try {
        await unlink(target(file.hash, file.ext));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
  };
}
