import { eq, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileInsert, compileUpdate } from '../sql/compile-write.js';
import type { Database, Executor } from './database.js';

/** Strapi's core store table. */
export const STORE = 'strapi_core_store_settings';

/**
 * Strapi's core store (`strapi_core_store_settings`): JSON values by key such as
 * `plugin_upload_settings`. Returns the stored object, or writes `defaults` under `key` and
 * returns them when the key is missing. An unreadable stored value yields the defaults (and is
 * left as it is).
 */
export async function readOrCreateStoreValue(
  exec: Executor,
  db: Database,
  key: string,
  defaults: object,
): Promise<Record<string, unknown>> {
  const [row] = await exec.all(
    compileSelect(db.dialect, simpleSelect(STORE, { value: ['value', 'string'] }, eq('key', key), { limit: 1 })),
  );
  if (row) {
    try {
      const value: unknown = JSON.parse(String(row.value));
      if (value && typeof value === 'object') return value as Record<string, unknown>;
    } catch {
      // Falls back to the defaults below.
    }
    return { ...defaults };
  }
  const values = rowOf({
    key: [key, 'string'],
    value: [JSON.stringify(defaults), 'string'],
    type: ['object', 'string'],
    environment: [null, 'string'],
    tag: [null, 'string'],
  });
  await exec.insert(compileInsert(db.dialect, { table: STORE, rows: [values] }), 1);
  return { ...defaults };
}

/** Replaces the value stored under `key` (which must exist). */
export async function writeStoreValue(exec: Executor, db: Database, key: string, value: object): Promise<void> {
  await exec.run(
    compileUpdate(db.dialect, {
      table: STORE,
      set: rowOf({ value: [JSON.stringify(value), 'string'] }),
      where: eq('key', key),
    }),
  );
}

/** The JSON value stored under `key` (any JSON, `"en"` included), or undefined when missing or unreadable. */
export async function readStoreJson(exec: Executor, db: Database, key: string): Promise<unknown> {
  const [row] = await exec.all(
    compileSelect(db.dialect, simpleSelect(STORE, { value: ['value', 'string'] }, eq('key', key), { limit: 1 })),
  );
  if (!row) return undefined;
  try {
    return JSON.parse(String(row.value)) as unknown;
  } catch {
    return undefined;
  }
}

/** Stores `value` under `key` as JSON, creating the entry when missing. */
export async function putStoreJson(exec: Executor, db: Database, key: string, value: unknown): Promise<void> {
  const [row] = await exec.all(
    compileSelect(db.dialect, simpleSelect(STORE, { id: ['id', 'integer'] }, eq('key', key), { limit: 1 })),
  );
  const text = JSON.stringify(value);
  if (row) {
    await exec.run(
      compileUpdate(db.dialect, { table: STORE, set: rowOf({ value: [text, 'string'] }), where: eq('key', key) }),
    );
    return;
  }
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  await exec.insert(
    compileInsert(db.dialect, {
      table: STORE,
      rows: [
        rowOf({
          key: [key, 'string'],
          value: [text, 'string'],
          type: [type, 'string'],
          environment: [null, 'string'],
          tag: [null, 'string'],
        }),
      ],
    }),
    1,
  );
}
