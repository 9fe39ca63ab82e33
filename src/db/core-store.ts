import type { Condition } from '../plan/plan-types.js';
import { eq, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import type { Database, Executor } from './database.js';

/** Strapi's core store table. */
export const STORE = 'strapi_core_store_settings';

/**
 * Where an entry lives besides its key: Strapi's `environment` and `tag` columns, null for none
 * (`strapi.store({ environment, tag })`; Strapi's own settings have neither).
 */
export interface StoreScope {
  readonly environment: string | null;
  readonly tag: string | null;
}

/** No environment, no tag: where Strapi and Cairn keep their own settings. */
export const UNSCOPED: StoreScope = { environment: null, tag: null };

/** `key = ? and environment <is null | = ?> and tag <is null | = ?>`: one entry, as Strapi's core store finds it. */
function entryWhere(key: string, scope: StoreScope): Condition {
  const scoped = (column: string, value: string | null): Condition =>
    value === null
      ? { kind: 'compare', column: { alias: '', column }, op: 'null', value: true, valueKind: 'string' }
      : eq(column, value);
  return {
    kind: 'and',
    children: [eq('key', key), scoped('environment', scope.environment), scoped('tag', scope.tag)],
  };
}

/**
 * Strapi's core store (`strapi_core_store_settings`): JSON values by key such as
 * `plugin_upload_settings` (here and below: the entry without environment or tag). Returns the stored object, or writes `defaults` under `key` and
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
    compileSelect(
      db.dialect,
      simpleSelect(STORE, { value: ['value', 'string'] }, entryWhere(key, UNSCOPED), { limit: 1 }),
    ),
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
      where: entryWhere(key, UNSCOPED),
    }),
  );
}

/** The JSON value stored under `key` (any JSON, `"en"` included), or undefined when missing or unreadable. */
export async function readStoreJson(exec: Executor, db: Database, key: string): Promise<unknown> {
  const [row] = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(STORE, { value: ['value', 'string'] }, entryWhere(key, UNSCOPED), { limit: 1 }),
    ),
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
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  await putStoreText(exec, db, key, UNSCOPED, JSON.stringify(value), type);
}

/** Sets the entry's text and type, creating the entry (with its scope) when missing; returns its id. */
async function putStoreText(
  exec: Executor,
  db: Database,
  key: string,
  scope: StoreScope,
  text: string,
  type: string,
): Promise<number> {
  const id = await entryId(exec, db, key, scope);
  if (id !== null) {
    await exec.run(
      compileUpdate(db.dialect, {
        table: STORE,
        set: rowOf({ value: [text, 'string'], type: [type, 'string'] }),
        where: eq('id', id, 'integer'),
      }),
    );
    return id;
  }
  const [inserted] = await exec.insert(
    compileInsert(db.dialect, {
      table: STORE,
      rows: [
        rowOf({
          key: [key, 'string'],
          value: [text, 'string'],
          type: [type, 'string'],
          environment: [scope.environment, 'string'],
          tag: [scope.tag, 'string'],
        }),
      ],
    }),
    1,
  );
  if (inserted === undefined) throw new Error(`the core store entry ${key} has no id`);
  return inserted;
}

/** A core store row as Strapi's Query Engine returns it (`strapi::core-store`). */
export interface StoreRow {
  readonly id: number;
  readonly key: string;
  readonly value: string | null;
  readonly type: string | null;
  readonly environment: string | null;
  readonly tag: string | null;
}

async function storeRow(exec: Executor, db: Database, id: number): Promise<StoreRow | null> {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const [row] = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        STORE,
        {
          id: ['id', 'integer'],
          key: ['key', 'string'],
          value: ['value', 'string'],
          type: ['type', 'string'],
          environment: ['environment', 'string'],
          tag: ['tag', 'string'],
        },
        eq('id', id, 'integer'),
      ),
    ),
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    key: String(row.key),
    value: text(row.value),
    type: text(row.type),
    environment: text(row.environment),
    tag: text(row.tag),
  };
}

/** The id of the entry (the first, should there be several), or null. */
async function entryId(exec: Executor, db: Database, key: string, scope: StoreScope): Promise<number | null> {
  const [row] = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(STORE, { id: ['id', 'integer'] }, entryWhere(key, scope), { limit: 1, orderById: true }),
    ),
  );
  return row ? Number(row.id) : null;
}

/**
 * What `strapi.store.get` answers for an entry, decoded by its stored `type` as Strapi's core
 * store does: `object`, `array`, `boolean` and `string` are JSON (a text that is not reads as a
 * Date of it), `number` a number, anything else (and a missing entry) null.
 */
export async function readStoreEntry(exec: Executor, db: Database, key: string, scope: StoreScope): Promise<unknown> {
  const [row] = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(STORE, { value: ['value', 'string'], type: ['type', 'string'] }, entryWhere(key, scope), {
        limit: 1,
        orderById: true,
      }),
    ),
  );
  if (!row) return null;
  const text = row.value === null || row.value === undefined ? '' : String(row.value);
  switch (row.type) {
    case 'object':
    case 'array':
    case 'boolean':
    case 'string':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return new Date(text);
      }
    case 'number':
      return Number(text);
    default:
      return null;
  }
}

/**
 * `strapi.store.set`: stores `value` as Strapi's core store does, its JSON text (the value's
 * string when it has none, `''` for undefined) with `typeof value` as its type (`object` for
 * arrays and null), in the entry of `key` and `scope`, created when missing. Returns the entry's
 * row, as Strapi's answers it.
 */
export async function writeStoreEntry(
  exec: Executor,
  db: Database,
  key: string,
  scope: StoreScope,
  value: unknown,
): Promise<StoreRow | null> {
  const json = JSON.stringify(value) as string | undefined;
  const text = json || (value === undefined || value === null ? '' : String(value));
  return storeRow(exec, db, await putStoreText(exec, db, key, scope, text, typeof value));
}

/** `strapi.store.delete`: removes the entry of `key` and `scope` (the first, should there be several); returns its row, null when there was none. */
export async function deleteStoreEntry(
  exec: Executor,
  db: Database,
  key: string,
  scope: StoreScope,
): Promise<StoreRow | null> {
  const id = await entryId(exec, db, key, scope);
  if (id === null) return null;
  const row = await storeRow(exec, db, id);
  await exec.run(compileDelete(db.dialect, { table: STORE, where: eq('id', id, 'integer') }));
  return row;
}
