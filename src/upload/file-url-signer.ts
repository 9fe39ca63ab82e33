import { isRecord } from '../core/is-record.js';
import type { PopulateNode } from '../query/populate-types.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import type { Document } from '../shape/shape-rows.js';
import type { StoredFileRow } from './stored-files.js';
import type { StoredObject, UploadProvider } from './upload-provider.js';

const FILE_UID = 'plugin::upload.file';

/**
 * Signed URLs for files kept by a private provider (a bucket with `ACL: 'private'`), as Strapi's
 * upload plugin signs them: the rows keep the stored URL; answers show `getSignedUrl(file)`.
 */
export interface FileUrlSigner {
  /** Whether the provider's files are private (their URLs signed in answers); false: answers are left as read. */
  readonly isPrivate: boolean;
  /**
   * The upload plugin's answers (`/api/upload/files`, the media library): every file with
   * `isUrlSigned`, true for a file of the private provider, whose `url` and each format's `url`
   * are then signed (Strapi's `signFileUrls`).
   */
  signFiles(files: readonly Document[]): Promise<Document[]>;
  /**
   * Document answers (content API, GraphQL, content manager): with a private provider, the files
   * among `documents` — the documents themselves for the file type, and the media entries the
   * query's populate tree reaches (under each node's key, GraphQL aliases included) — signed as by
   * `signFiles` (Strapi's document-service middleware); the documents as they are otherwise.
   */
  signDocuments(type: ContentType, query: Query, documents: readonly Document[]): Promise<Document[]>;
}

/**
 * Builds the signer once at start: asks the provider `isPrivate()` (as Strapi registers its
 * signing middleware at bootstrap). A file is signed when its `provider` is the configured
 * provider's name (Strapi compares them too). A file shown with some of its columns only
 * (`fields`, a GraphQL selection) is signed from its stored row, read by `readStored` in one
 * query for all of them; only the keys shown change.
 */
export async function createFileUrlSigner(
  provider: UploadProvider,
  readStored: (ids: readonly number[]) => Promise<ReadonlyMap<number, StoredFileRow>>,
): Promise<FileUrlSigner> {
  const isPrivate = await provider.isPrivate();
  const sign = async (object: StoredObject): Promise<Document> => ({
    ...object,
    url: await provider.signedUrl(object),
    isUrlSigned: true,
  });
  const signOne = async (file: Document, source: Document | undefined): Promise<Document> => {
    if (!source || source.provider !== provider.name || !isStoredObject(source)) return { ...file, isUrlSigned: false };
    const signed: Document = { ...file, isUrlSigned: true };
    if ('url' in file) signed.url = (await sign(source)).url;
    if (isRecord(file.formats)) {
      const entries = await Promise.all(
        Object.entries(file.formats).map(async ([key, format]) => [
          key,
          isStoredObject(format) ? await sign(format) : format,
        ]),
      );
      signed.formats = Object.fromEntries(entries);
    }
    return signed;
  };
  const signAll = async (files: readonly Document[]): Promise<Map<Document, Document>> => {
    const partial = files.filter((file) => !isComplete(file) && typeof file.id === 'number');
    const stored = partial.length > 0 ? await readStored(partial.map((file) => Number(file.id))) : new Map();
    const sourceOf = (file: Document): Document | undefined =>
      isComplete(file) ? file : (stored.get(Number(file.id)) as Document | undefined);
    return new Map(await Promise.all(files.map(async (file) => [file, await signOne(file, sourceOf(file))] as const)));
  };
  return {
    isPrivate,
    async signFiles(files) {
      if (!isPrivate) return files.map((file) => ({ ...file, isUrlSigned: false }));
      const signed = await signAll(files);
      return files.map((file) => signed.get(file) ?? file);
    },
    async signDocuments(type, query, documents) {
      if (!isPrivate) return [...documents];
      const files: Document[] = [];
      const collect = (file: Document) => {
        files.push(file);
        return file;
      };
      const root = type.uid === FILE_UID;
      const walk = (onFile: (file: Document) => Document) =>
        documents.map((document) => visit(root ? onFile(document) : document, query.populate, onFile));
      walk(collect);
      if (files.length === 0) return [...documents];
      const signed = await signAll(files);
      return walk((file) => signed.get(file) ?? file);
    },
  };
}

/**
 * `document` with `onFile` applied to each media entry the populate tree reaches, copied only
 * where something changed. Counts (`{ count }`) and missing keys are left alone.
 */
function visit(document: Document, populate: readonly PopulateNode[], onFile: (file: Document) => Document): Document {
  let out = document;
  for (const node of populate) {
    const key = node.key ?? node.attribute;
    const value = document[key];
    if (value === null || value === undefined) continue;
    let next: unknown;
    if (node.kind === 'dynamiczone') {
      next = mapEntries(value, (item) => {
        const fragment = node.fragments.get(String(item.__component));
        return fragment ? visit(item, fragment.populate, onFile) : item;
      });
    } else if (node.count) {
      continue;
    } else {
      const media = node.kind === 'media';
      next = mapEntries(value, (entry) => visit(media ? onFile(entry) : entry, node.populate, onFile));
    }
    if (next !== value) out = { ...out, [key]: next };
  }
  return out;
}

/** One entry or a list of them mapped; the same value back when no entry changed. */
function mapEntries(value: unknown, map: (entry: Document) => Document): unknown {
  if (Array.isArray(value)) {
    const mapped = value.map((entry: unknown) => (isRecord(entry) ? map(entry) : entry));
    return mapped.every((entry, index) => entry === value[index]) ? value : mapped;
  }
  return isRecord(value) ? map(value) : value;
}

/** Whether a shown file carries what signing reads (else its stored row is read). */
function isComplete(file: Document): boolean {
  return 'provider' in file && isStoredObject(file);
}

function isStoredObject(value: unknown): value is StoredObject {
  return (
    isRecord(value) && typeof value.hash === 'string' && typeof value.ext === 'string' && typeof value.url === 'string'
  );
}
