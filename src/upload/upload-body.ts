import { fieldValidationError, ValidationError } from '../core/errors.js';
import { MAX_BODY_DEPTH, pathBeyondDepth } from '../core/nesting-depth.js';
import { getModel, type ContentType, type Schema } from '../schema/types.js';

/** What a client may say about one uploaded file (`fileInfo`). Unknown keys are ignored, as Strapi does. */
export interface FileInfo {
  readonly name?: string | null;
  readonly alternativeText?: string | null;
  readonly caption?: string | null;
  /** The media library's folder id (null: the root); the content API never sets it (its uploads go to API Uploads). */
  readonly folder?: number | null;
}

/** Where an upload links its files (`ref`, `refId`, `field`). */
export interface UploadTarget {
  readonly uid: string;
  /** The content type linked to (null: a component), whose document's write lock the upload takes. */
  readonly contentType: ContentType | null;
  readonly table: string;
  readonly rowId: number;
  readonly field: string;
  readonly multiple: boolean;
  readonly allowedTypes: readonly string[] | undefined;
}

const INFO_KEYS = ['name', 'alternativeText', 'caption'] as const;

/**
 * `fileInfo` (a JSON string, or one per file when repeated) → one FileInfo per file: an object
 * applies to a single file, an array maps to the files in order. Values must be strings or null.
 */
export function parseFileInfo(raw: string | readonly string[] | undefined, fileCount: number): FileInfo[] {
  if (raw === undefined) return Array.from({ length: fileCount }, () => ({}));
  const values = (Array.isArray(raw) ? raw : [raw]).map(parseJson);
  const list = values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : values;
  return Array.from({ length: Math.max(fileCount, 1) }, (_, index) =>
    checkInfo(list[index], Array.isArray(values[0]) || values.length > 1 ? index : null),
  );
}

function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new ValidationError('fileInfo must be a JSON object (or an array of objects, one per file)');
  }
  if (pathBeyondDepth(value, MAX_BODY_DEPTH))
    throw new ValidationError(`fileInfo nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep`);
  return value;
}

function checkInfo(value: unknown, index: number | null): FileInfo {
  if (value === undefined || value === null) return {};
  const path = index === null ? ['fileInfo'] : ['fileInfo', String(index)];
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw fieldValidationError([
      { path, message: `${path.join('.')} must be a \`object\` type`, name: 'ValidationError', value },
    ]);
  }
  const info: Record<string, string | null> = {};
  for (const key of INFO_KEYS) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    if (item !== null && typeof item !== 'string') {
      const at = [...path, key];
      throw fieldValidationError([
        {
          path: at,
          message: `${at.join('.')} must be a \`string\` type, but the final value was: \`${JSON.stringify(item)}\`.`,
          name: 'ValidationError',
          value: item,
        },
      ]);
    }
    info[key] = item;
  }
  return info;
}

/**
 * `ref`, `refId`, `field` → the row and media attribute to link, or null when no `ref` is given.
 * `ref` names a content type or component, `refId` one of its row ids, `field` one of its media
 * attributes; anything else is a 400 naming the problem (Strapi links blindly).
 */
export function parseUploadTarget(
  schema: Schema,
  fields: Readonly<Record<string, string | readonly string[]>>,
): UploadTarget | null {
  const single = (name: string) => {
    const value = fields[name];
    return Array.isArray(value) ? value[0] : (value as string | undefined);
  };
  const ref = single('ref');
  const refId = single('refId');
  const field = single('field');
  if (ref === undefined && refId === undefined && field === undefined) return null;
  if (!ref || !refId || !field)
    throw new ValidationError(
      'ref, refId and field go together: the model uid, the row id and the media attribute to link the files to',
    );
  const model = getModel(schema, ref);
  if (!model || ('origin' in model && model.origin !== 'api'))
    throw new ValidationError(`Invalid ref "${ref}": no such content type or component`);
  const attribute = model.attributes.get(field);
  if (!attribute || attribute.type !== 'media')
    throw new ValidationError(`Invalid field "${field}": ${ref} has no media attribute of that name`);
  if (!/^\d{1,15}$/.test(refId))
    throw new ValidationError(`Invalid refId "${refId}": a row id (a positive integer) is expected`);
  const contentType = schema.contentTypes.get(model.uid) ?? null;
  return {
    uid: model.uid,
    contentType,
    table: model.table,
    rowId: Number(refId),
    field,
    multiple: attribute.multiple,
    allowedTypes: attribute.allowedTypes,
  };
}
