import { createDocumentId } from '../core/document-id.js';
import { putStoreJson, readStoreJson } from '../db/core-store.js';
import type { Database } from '../db/database.js';
import { rowOf, simpleSelect } from '../plan/simple-plans.js';
import { decodeValue } from '../shape/decode-value.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileInsert } from '../sql/compile-write.js';

const LOCALES = 'i18n_locale';
const DEFAULT_KEY = 'plugin_i18n_default_locale';

/** A locale as `GET /api/i18n/locales` shows it. */
export interface LocaleEntry {
  readonly id: number;
  readonly documentId: string;
  readonly name: string;
  readonly code: string;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly publishedAt: string | null;
  readonly isDefault: boolean;
}

/**
 * Strapi's name for a locale code: the English name and the code, `French (fr)`,
 * `English (United States) (en-US)`; the code alone when the runtime does not know it.
 */
export function localeName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/**
 * Brings i18n's stored state up to date at start, writing only what is missing (the database wins,
 * as in Strapi): the configured locales (`i18n.config.locales`, a Cairn option) missing from
 * `i18n_locale` are created in config order; a table still empty gets the default locale, as
 * Strapi's first start does; the default locale is recorded in the core store
 * (`plugin_i18n_default_locale`) only when none is stored. Returns the stored default locale, set
 * by an admin or by Strapi, which the whole server then uses.
 */
export async function syncLocales(
  db: Database,
  config: { readonly locales: readonly string[]; readonly defaultLocale: string },
  now: Date,
): Promise<string> {
  return db.transaction(async (tx) => {
    const rows = await tx.all(compileSelect(db.dialect, simpleSelect(LOCALES, { code: ['code', 'string'] }, null)));
    const stored = new Set(rows.map((row) => String(row.code)));
    const wanted = stored.size === 0 && config.locales.length === 0 ? [config.defaultLocale] : config.locales;
    const missing = wanted.filter((code) => !stored.has(code));
    if (missing.length > 0) {
      const values = missing.map((code) =>
        rowOf({
          document_id: [createDocumentId(), 'string'],
          name: [localeName(code), 'string'],
          code: [code, 'string'],
          created_at: [now, 'datetime'],
          updated_at: [now, 'datetime'],
          published_at: [now, 'datetime'],
        }),
      );
      await tx.insert(compileInsert(db.dialect, { table: LOCALES, rows: values }), values.length);
    }
    const storedDefault = await readStoreJson(tx, db, DEFAULT_KEY);
    if (typeof storedDefault === 'string' && storedDefault !== '') return storedDefault;
    await putStoreJson(tx, db, DEFAULT_KEY, config.defaultLocale);
    return config.defaultLocale;
  });
}

/** Every stored locale, oldest first, `isDefault` marking the configured default. */
export async function listLocales(db: Database, defaultLocale: string): Promise<LocaleEntry[]> {
  const columns = {
    id: ['id', 'integer'],
    documentId: ['document_id', 'string'],
    name: ['name', 'string'],
    code: ['code', 'string'],
    createdAt: ['created_at', 'datetime'],
    updatedAt: ['updated_at', 'datetime'],
    publishedAt: ['published_at', 'datetime'],
  } as const;
  const rows = await db.all(compileSelect(db.dialect, simpleSelect(LOCALES, columns, null, { orderById: true })));
  const time = (value: unknown) => decodeValue('datetime', value) as string | null;
  return rows.map((row) => ({
    id: Number(row.id),
    documentId: String(row.documentId),
    name: String(row.name ?? ''),
    code: String(row.code ?? ''),
    createdAt: time(row.createdAt),
    updatedAt: time(row.updatedAt),
    publishedAt: time(row.publishedAt),
    isDefault: row.code === defaultLocale,
  }));
}
