import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { WebhookEventName } from '../config/webhooks-config.js';
import { findDocumentsById, type ReadContext } from '../documents/read-documents.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query } from '../query/query-types.js';
import type { ContentType, Model, Schema } from '../schema/types.js';

/** An entry event to build: its payload fields, and which version of which document its `entry` is. */
export interface EntryEvent {
  readonly event: WebhookEventName;
  readonly createdAt: string;
  readonly model: string;
  readonly uid: string;
  readonly documentId: string;
  /** null: the default locale (or a type without locales). */
  readonly locale: string | null;
  readonly status: 'draft' | 'published';
}

/** Builds entry event bodies (Strapi's webhook payload; the entry deep-populated, private fields out). */
export interface EntryReader {
  /**
   * Each event's body, as JSON text (`{ event, createdAt, model, uid, entry }`), or null when its
   * entry does not exist; the entries are read together.
   */
  bodies(events: readonly EntryEvent[]): Promise<(string | null)[]>;
}

/** The part of the config an entry read needs (it crosses to the webhook thread as is). */
export type EntryReaderConfig = Pick<Config, 'api' | 'i18n'>;

/**
 * Builds bodies on the calling thread, through `read.exec`. The entries of one call are read in
 * one read-only transaction: a consistent snapshot (a write committing meanwhile shows in all of
 * an entry or in none of it: a snapshot transaction, REPEATABLE READ), and on
 * SQLite one lock for all the statements instead of one each. The documents of one type, status
 * and locale are read together (findDocumentsById: the statements depend on the populate tree,
 * not on the number of events), and an entry asked by several events is serialized once.
 */
export function createEntryReader(
  read: ReadContext & { readonly exec: Database },
  config: EntryReaderConfig,
): EntryReader {
  const queries = new Map<string, Query>();
  const queryOf = (type: ContentType): Query => {
    let query = queries.get(type.uid);
    if (!query) {
      query = normalizeQuery(
        read.schema,
        type,
        { populate: deepPopulate(read.schema, type) },
        { api: config.api, defaultLocale: config.i18n.defaultLocale },
      );
      queries.set(type.uid, query);
    }
    return query;
  };
  const versionKey = (event: EntryEvent) => `${event.uid}\u0000${event.status}\u0000${event.locale ?? ''}`;
  return {
    bodies: (events) =>
      read.exec.transaction(
        async (exec) => {
          const snapshot = { ...read, exec };
          const groups = new Map<string, { type: ContentType; event: EntryEvent; ids: Set<string> }>();
          for (const event of events) {
            const type = read.schema.contentTypes.get(event.uid);
            if (!type) continue;
            const key = versionKey(event);
            const group = groups.get(key) ?? { type, event, ids: new Set<string>() };
            group.ids.add(event.documentId);
            groups.set(key, group);
          }
          // Entry JSON by version key and documentId (a locale-less read of a localized type keeps the first row).
          const entries = new Map<string, string>();
          await Promise.all(
            [...groups].map(async ([key, { type, event, ids }]) => {
              const documents = await findDocumentsById(snapshot, type, [...ids], {
                ...queryOf(type),
                locale: event.locale,
                status: event.status,
              });
              for (const document of documents) {
                const at = `${key}\u0000${String(document.documentId)}`;
                if (!entries.has(at)) entries.set(at, JSON.stringify(document));
              }
            }),
          );
          return events.map((event) => {
            const entry = entries.get(`${versionKey(event)}\u0000${event.documentId}`);
            if (entry === undefined) return null;
            // As JSON.stringify({ event, createdAt, model, uid, entry }) writes it, the entry serialized once.
            const { event: name, createdAt, model, uid } = event;
            return `{"event":${JSON.stringify(name)},"createdAt":${JSON.stringify(createdAt)},"model":${JSON.stringify(model)},"uid":${JSON.stringify(uid)},"entry":${entry}}`;
          });
        },
        { snapshot: true },
      ),
  };
}

/**
 * The populate of an event's entry, as Strapi's document service builds it (`getDeepPopulate`):
 * every relation and media attribute with all the target's fields, components and dynamic-zone
 * components all the way down with theirs. Private attributes stay out (Strapi sanitises them
 * away), and so does `localizations` (not a visible attribute in Strapi, so never populated).
 *
 *   article → { author: true, tags: true, cover: true, …, seo: { populate: { shareImage: true, keywords: true } },
 *               blocks: { on: { 'shared.quote': { populate: { author: true } }, 'shared.rich-text': true, … } } }
 */
export function deepPopulate(schema: Schema, model: Model, path: readonly string[] = []): Record<string, unknown> {
  const nested = (uid: string): unknown => {
    const component = schema.components.get(uid);
    // A component nested in itself (an invalid schema) is not followed a second time.
    if (!component || path.includes(uid)) return true;
    const inner = deepPopulate(schema, component, [...path, model.uid]);
    return Object.keys(inner).length > 0 ? { populate: inner } : true;
  };
  const populate: Record<string, unknown> = {};
  for (const attribute of model.attributes.values()) {
    if (attribute.private) continue;
    if (attribute.type === 'relation' && attribute.target !== undefined) populate[attribute.name] = true;
    else if (attribute.type === 'media') populate[attribute.name] = true;
    else if (attribute.type === 'component') populate[attribute.name] = nested(attribute.component);
    else if (attribute.type === 'dynamiczone')
      populate[attribute.name] = { on: Object.fromEntries(attribute.components.map((uid) => [uid, nested(uid)])) };
  }
  return populate;
}
