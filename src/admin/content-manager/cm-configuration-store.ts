import { isDeepStrictEqual } from 'node:util';
import { NotFoundError } from '../../core/errors.js';
import { putStoreJson } from '../../db/core-store.js';
import type { Database, Executor } from '../../db/database.js';
import { isIn, simpleSelect } from '../../plan/simple-plans.js';
import type { Schema } from '../../schema/types.js';
import { compileSelect } from '../../sql/compile-read.js';
import { compileDelete } from '../../sql/compile-write.js';
import { createDefaultConfiguration, syncConfiguration } from './cm-configuration.js';
import type { ConfigurationInput } from './cm-configuration-input.js';
import { buildContentManagerSchemas, type CmModel, type ContentManagerSchemas } from './cm-schemas.js';
import type { ModelDefinitions } from './cm-strapi-models.js';

const STORE = 'strapi_core_store_settings';
const PREFIX = 'plugin_content_manager_configuration_';

/** A model's stored configuration: `{ uid, settings, metadatas, layouts }` (+ `isComponent`, `options`), as Strapi writes it. */
export type StoredConfiguration = Readonly<Record<string, unknown>>;

/**
 * The content manager's view configurations, synced with the schema and held in memory (one
 * process owns them): reads come from memory, `update` writes through to the core store.
 */
export interface ContentManagerConfigurations {
  readonly schemas: ContentManagerSchemas;
  /** The stored configuration of a content type or component (undefined for an unknown uid). */
  get(uid: string): StoredConfiguration | undefined;
  /**
   * Replaces the parts of `uid`'s configuration that `input` holds (Strapi's
   * `setModelConfiguration`: other stored keys stay) and stores it. Returns the new configuration.
   */
  update(uid: string, input: ConfigurationInput): Promise<StoredConfiguration>;
}

/**
 * The core-store key of a model's configuration, as Strapi names it:
 * `plugin_content_manager_configuration_content_types::api::article.article`,
 * `plugin_content_manager_configuration_components::shared.seo`.
 */
export function configurationKey(model: Pick<CmModel, 'uid' | 'modelType'>): string {
  return `${PREFIX}${model.modelType === 'component' ? 'components' : 'content_types'}::${model.uid}`;
}

/**
 * At start, as Strapi's content manager does: creates the configuration of every model that has
 * none, brings stored ones up to date with the schema (cm-configuration.ts `syncConfiguration`:
 * what an editor arranged stays, attributes gone are dropped, new ones appended) and deletes
 * those of models that no longer exist. Writes only what changed, in one transaction. Returns the
 * configurations, cached for the routes. `definitions` (the project's model files) make the
 * schemas' descriptions exact (cm-strapi-models.ts); `now` is unused, the core store keeps no times.
 *
 *   select key, value from strapi_core_store_settings where key in (<one key per model>)
 */
export async function syncContentManagerConfigurations(
  db: Database,
  schema: Schema,
  _now: () => Date,
  definitions?: ModelDefinitions,
): Promise<ContentManagerConfigurations> {
  const schemas = buildContentManagerSchemas(schema, definitions);
  const models = [...schemas.contentTypes.values(), ...schemas.components.values()];
  const cache = new Map<string, StoredConfiguration>();
  await db.transaction(async (tx) => {
    const stored = await readConfigurations(tx, db, models.map(configurationKey));
    for (const model of models) {
      const key = configurationKey(model);
      const previous = stored.get(key);
      const next = previous
        ? merged(previous.value, { uid: model.uid, ...syncConfiguration(previous.value, model, schemas) }, model)
        : merged({}, { uid: model.uid, ...createDefaultConfiguration(model, schemas) }, model);
      cache.set(model.uid, next);
      // The stored text is what putStoreJson wrote at the last start when nothing changed since:
      // comparing it is a fraction of the deep comparison, left for text written otherwise.
      const unchanged = previous && (previous.text === JSON.stringify(next) || isDeepStrictEqual(previous.value, next));
      if (!unchanged) await putStoreJson(tx, db, key, next);
    }
    await deleteStale(tx, db, models);
  });
  return {
    schemas,
    get: (uid) => cache.get(uid),
    update: async (uid, input) => {
      const model = schemas.contentTypes.get(uid) ?? schemas.components.get(uid);
      const previous = cache.get(uid);
      if (!model || !previous) throw new NotFoundError(`No view configuration for ${uid}`);
      const next = merged(previous, { uid, ...input }, model);
      if (!isDeepStrictEqual(previous, next)) await putStoreJson(db, db, configurationKey(model), next);
      cache.set(uid, next);
      return next;
    },
  };
}

/** `stored` with each defined, non-null part of `parts` set over it; components are marked `isComponent`. */
function merged(stored: StoredConfiguration, parts: Readonly<Record<string, unknown>>, model: CmModel) {
  const next: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(parts)) if (value !== undefined && value !== null) next[key] = value;
  if (model.modelType === 'component') next.isComponent = true;
  return JSON.parse(JSON.stringify(next)) as StoredConfiguration;
}

/** The stored configurations under `keys`, parsed and as stored (unreadable values left out). */
async function readConfigurations(
  exec: Executor,
  db: Database,
  keys: readonly string[],
): Promise<Map<string, { readonly value: StoredConfiguration; readonly text: string }>> {
  const rows = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(STORE, { key: ['key', 'string'], value: ['value', 'string'] }, isIn('key', keys, 'string')),
    ),
  );
  const found = new Map<string, { readonly value: StoredConfiguration; readonly text: string }>();
  for (const row of rows) {
    try {
      const text = String(row.value);
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value))
        found.set(String(row.key), { value: value as StoredConfiguration, text });
    } catch {
      // An unreadable value is generated anew, as a missing one.
    }
  }
  return found;
}

/**
 * Deletes the configurations of models the schema no longer has:
 *
 *   delete from strapi_core_store_settings where key like 'plugin_content_manager_configuration_%' and key not in (…)
 */
async function deleteStale(exec: Executor, db: Database, models: readonly CmModel[]): Promise<void> {
  const keys = models.map(configurationKey);
  await exec.run(
    compileDelete(db.dialect, {
      table: STORE,
      where: {
        kind: 'and',
        children: [
          {
            kind: 'compare',
            column: { alias: '', column: 'key' },
            op: 'startsWith',
            value: PREFIX,
            valueKind: 'string',
          },
          { kind: 'compare', column: { alias: '', column: 'key' }, op: 'notIn', value: keys, valueKind: 'string' },
        ],
      },
    }),
  );
}
