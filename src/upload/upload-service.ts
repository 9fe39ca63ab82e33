import type { UploadConfig } from '../config/upload-config.js';
import { ApplicationError, NotFoundError, PayloadTooLargeError, ValidationError } from '../core/errors.js';
import type { Database } from '../db/database.js';
import type { ChangeBus } from '../events/change-bus.js';
import { mediaCategory } from '../schema/media-category.js';
import { checkFileType, type TypeVerdict } from './check-file-type.js';
import { detectContent } from './detect-content.js';
import { placeFiles, resolveFolder } from './file-folders.js';
import { isAcceptableFileName } from './file-names.js';
import {
  deleteFileRow,
  insertFileRow,
  linkFileToRow,
  lockTargetRow,
  replaceFileRow,
  updateFileInfoRow,
} from './file-rows.js';
import type { FileUrlSigner } from './file-url-signer.js';
import type { UploadStorage } from './load-upload-storage.js';
import { findStoredFile, type StoredFileRow } from './stored-files.js';
import type { ImageSettings } from './image-formats.js';
import type { ReceivedFile, ReceivedUpload } from './receive-upload.js';
import type { FileInfo, UploadTarget } from './upload-body.js';
import { removeObjects, storeFile, type StoreDeps, type StoredUpload } from './store-file.js';

/** Strapi's `NotFoundError()` default message, which its replace and info update answer for an unknown `?id=`. */
export const ENTITY_NOT_FOUND = 'Entity not found';

/** What the upload operations work with, built once by the composition root. */
export interface UploadContext {
  readonly config: UploadConfig;
  readonly db: Database;
  /** The provider new files go to, and the one each stored row's objects belong to. */
  readonly storage: UploadStorage;
  /** Signs the URLs of files shown in answers when the provider is private. */
  readonly urls: FileUrlSigner;
  /** `plugin_upload_settings` (size optimisation, responsive formats, auto-orientation) with the breakpoints. */
  readonly imageSettings: () => ImageSettings;
  /** Where committed media writes are published. */
  readonly changes: ChangeBus;
  readonly now: () => Date;
  /** Reads a file back as the API shows it (for events). */
  readonly readFile: (id: number) => Promise<Readonly<Record<string, unknown>> | null>;
}

/**
 * `POST /api/upload`: checks the type of each file (check-file-type.ts) and, as Strapi 5.54
 * does, leaves out the refused ones (400 with the first refusal when none is left); stores each
 * file left (and its image formats) with the provider, then records every `files` row — and the
 * `ref` link — in one transaction. If anything fails, the stored objects are deleted again, so no
 * file is left without its row nor a row without its file. Emits `media.create` per file after
 * the commit. Returns the new file ids in upload order. With `adminId` (the media library's
 * uploads), each file goes to the folder its info names (the root without one) instead of
 * API Uploads, and records that admin user as its creator.
 */
export async function uploadFiles(
  ctx: UploadContext,
  upload: ReceivedUpload,
  infos: readonly FileInfo[],
  target: UploadTarget | null,
  adminId: number | null = null,
): Promise<number[]> {
  if (upload.files.length === 0) throw new ValidationError('Files are empty');
  const accepted = await screenTypes(
    ctx,
    upload.files.map((file, index) => ({ file, info: infos[index] ?? {} })),
  );
  if (target && target.multiple === false && accepted.length > 1)
    throw new ValidationError(`Cannot link ${accepted.length} files to ${target.field}: it holds a single file`);
  for (const { file, mime } of accepted) checkFile(ctx, file, mime, target);
  const stored: StoredUpload[] = [];
  try {
    for (const { file, info, mime } of accepted) stored.push(await storeFile(storing(ctx), upload, file, info, mime));
    const ids = await ctx.db.transaction(async (tx) => {
      if (target && !(await lockTargetRow(tx, ctx.db, target)))
        throw new ValidationError(`Invalid refId "${target.rowId}": ${target.uid} has no row with that id`);
      const created: number[] = [];
      for (const [index, file] of stored.entries()) {
        const library = adminId === null ? null : { folderId: accepted[index]?.info.folder ?? null, adminId };
        const id = await insertFileRow(tx, ctx.db, file.values, ctx.now(), library);
        if (target) await linkFileToRow(tx, ctx.db, target, id);
        created.push(id);
      }
      return created;
    });
    await emit(ctx, 'create', ids);
    return ids;
  } catch (error) {
    await removeObjects(
      ctx.storage.provider,
      stored.flatMap((file) => file.objects),
    );
    throw error;
  }
}

/**
 * `POST /api/upload?id=` with one file: the file keeps its id and links; its stored objects are
 * replaced (the old ones deleted after the commit). `fileInfo` may rename it (and, from the
 * media library, move it: `folder`); `adminId` is recorded as the file's last editor.
 */
export async function replaceFile(
  ctx: UploadContext,
  id: number,
  upload: ReceivedUpload,
  info: FileInfo,
  adminId: number | null = null,
): Promise<void> {
  if (upload.files.length > 1) throw new ValidationError('Cannot replace a file with multiple ones');
  const [file] = upload.files;
  if (!file) throw new ValidationError('Files are empty');
  const verdict = await typeOf(ctx, file);
  if (!verdict.ok) throw verdict.error;
  const old = await findStoredFile(ctx.db, ctx.db, id);
  if (!old) throw new NotFoundError(ENTITY_NOT_FOUND);
  checkFile(ctx, file, verdict.mime, null);
  const replacement = await storeFile(storing(ctx), upload, file, info, verdict.mime);
  try {
    await ctx.db.transaction(async (tx) => {
      if (!(await findStoredFile(tx, ctx.db, id))) throw new NotFoundError(ENTITY_NOT_FOUND);
      await replaceFileRow(tx, ctx.db, id, replacement.values, ctx.now(), adminId);
      if (info.folder !== undefined) await placeFiles(tx, ctx.db, [id], await resolveFolder(tx, ctx.db, info.folder));
    });
  } catch (error) {
    await removeObjects(ctx.storage.provider, replacement.objects);
    throw error;
  }
  await removeStoredFile(ctx, old);
  await emit(ctx, 'update', [id]);
}

/**
 * `POST /api/upload?id=` without a file: changes name, alternative text and caption (and, from
 * the media library, the folder: `folder`, null for the root); `adminId` is recorded as the
 * file's last editor.
 */
export async function updateFileInfo(
  ctx: UploadContext,
  id: number,
  info: FileInfo,
  adminId: number | null = null,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await findStoredFile(tx, ctx.db, id))) throw new NotFoundError(ENTITY_NOT_FOUND);
    await updateFileInfoRow(tx, ctx.db, id, info, ctx.now(), adminId);
    if (info.folder !== undefined) await placeFiles(tx, ctx.db, [id], await resolveFolder(tx, ctx.db, info.folder));
  });
  await emit(ctx, 'update', [id]);
}

/**
 * `DELETE /api/upload/files/:id`: removes the row and every link to it in one transaction, then
 * the stored objects. Returns false when there is no such file.
 */
export async function deleteFile(
  ctx: UploadContext,
  id: number,
  shown: Readonly<Record<string, unknown>>,
): Promise<boolean> {
  const old = await findStoredFile(ctx.db, ctx.db, id);
  if (!old) return false;
  await ctx.db.transaction((tx) => deleteFileRow(tx, ctx.db, id));
  await removeStoredFile(ctx, old);
  ctx.changes.publish({ subject: 'media', kind: 'delete', file: shown, at: ctx.now() });
  return true;
}

/**
 * The files whose type passes check-file-type.ts, each with the type to store; the refused ones
 * are left out, as Strapi 5.54 leaves them out, and when none passes the first refusal is thrown.
 */
async function screenTypes(
  ctx: UploadContext,
  files: readonly { readonly file: ReceivedFile; readonly info: FileInfo }[],
): Promise<{ file: ReceivedFile; info: FileInfo; mime: string }[]> {
  const verdicts = await Promise.all(files.map(({ file }) => typeOf(ctx, file)));
  const accepted = files.flatMap((entry, index) => {
    const verdict = verdicts[index];
    return verdict?.ok ? [{ ...entry, mime: verdict.mime }] : [];
  });
  const refusal = verdicts.find((verdict) => !verdict.ok);
  if (accepted.length === 0 && refusal && !refusal.ok) throw refusal.error;
  return accepted;
}

/** The type a received file is stored with, from its name, its declared type and its bytes. */
async function typeOf(ctx: UploadContext, file: ReceivedFile): Promise<TypeVerdict> {
  return checkFileType(
    { fileName: file.filename, declaredType: file.mimetype, content: await detectContent(file.path) },
    ctx.config,
  );
}

/** The checks Strapi makes of a whole upload once the types are screened: the file name, the target attribute's media kinds, the size. */
function checkFile(ctx: UploadContext, file: ReceivedFile, mime: string, target: UploadTarget | null): void {
  if (!isAcceptableFileName(file.filename)) throw new ApplicationError('File name contains invalid characters');
  if (target?.allowedTypes && !target.allowedTypes.includes(mediaCategory(mime))) {
    throw new ValidationError(`${target.field} accepts ${target.allowedTypes.join(', ')}; ${file.filename} is ${mime}`);
  }
  if (file.sizeInBytes > ctx.config.sizeLimitBytes) throw new PayloadTooLargeError('FileTooBig');
}

/**
 * Deletes a file's stored objects (the original and its formats) with the provider that stored
 * them; a row of a provider no longer configured keeps its objects, as Strapi keeps them.
 */
async function removeStoredFile(ctx: UploadContext, file: StoredFileRow): Promise<void> {
  const provider = ctx.storage.providerOf(file.provider);
  if (!provider) return;
  const { formats, id: _id, ...original } = file;
  await removeObjects(provider, [original, ...Object.values(formats ?? {})]);
}

/** What storing a file needs of the context. */
function storing(ctx: UploadContext): StoreDeps {
  return {
    provider: ctx.storage.provider,
    imageSettings: ctx.imageSettings(),
    sizeLimitBytes: ctx.config.sizeLimitBytes,
  };
}

async function emit(ctx: UploadContext, kind: 'create' | 'update', ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    const file = await ctx.readFile(id);
    if (file) ctx.changes.publish({ subject: 'media', kind, file, at: ctx.now() });
  }
}
