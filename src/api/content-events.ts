import type { Config } from '../config/config.js';
import { findOneDocument, type ReadContext } from '../documents/read-documents.js';
import type { EventBus } from '../events/event-bus.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query } from '../query/query-types.js';
import type { Model, Schema, ContentType } from '../schema/types.js';
import type { Document } from '../shape/shape-rows.js';

/** Emits the `entry.*` events of content-API writes (Strapi's webhook payloads). */
export interface ContentEvents {
  /** After a create or update committed: `entry.create`/`entry.update`, then `entry.publish` when it published. */
  written(type: ContentType, documentId: string, query: Query, created: boolean): void;
  /** Before a delete: reads the document as it is; call the result after the delete committed. */
  deleting(type: ContentType, documentId: string, query: Query): Promise<() => void>;
}

/**
 * Entry events as Strapi sends them (`{ event, createdAt, model, uid, entry }`, the entry
 * deep-populated as `deepPopulate` says and private fields left out), but
 * one `entry.delete` per deleted document rather than one per row. Payloads are read after the
 * response is on its way (a write never waits for them), and only when something listens.
 */
export function createContentEvents(events: EventBus, read: ReadContext, config: Config, onError: (error: unknown) => void, now: () => Date = () => new Date()): ContentEvents {
  const everything = new Map<string, Query>();
  const payloadQuery = (type: ContentType, query: Query, status: 'draft' | 'published'): Query => {
    let base = everything.get(type.uid);
    if (!base) {
      base = normalizeQuery(read.schema, type, { populate: deepPopulate(read.schema, type) }, { api: config.api, defaultLocale: config.i18n.defaultLocale });
      everything.set(type.uid, base);
    }
    return { ...base, locale: query.locale === '*' ? null : query.locale, status };
  };
  const emit = (event: string, type: ContentType, entry: Document | null) => {
    if (entry) events.emit({ event: event as 'entry.create', createdAt: now().toISOString(), model: type.singularName, uid: type.uid, entry });
  };
  return {
    written(type, documentId, query, created) {
      const name = created ? 'entry.create' : 'entry.update';
      const publishing = type.draftAndPublish && query.status !== 'draft' && events.wants('entry.publish');
      const writing = events.wants(name);
      if (!writing && !publishing) return;
      setImmediate(() => {
        void (async () => {
          if (writing) emit(name, type, await findOneDocument(read, type, documentId, payloadQuery(type, query, type.draftAndPublish ? 'draft' : 'published')));
          if (publishing) emit('entry.publish', type, await findOneDocument(read, type, documentId, payloadQuery(type, query, 'published')));
        })().catch(onError);
      });
    },
    async deleting(type, documentId, query) {
      if (!events.wants('entry.delete')) return () => undefined;
      const entry =
        (await findOneDocument(read, type, documentId, payloadQuery(type, query, 'published'))) ??
        (type.draftAndPublish ? await findOneDocument(read, type, documentId, payloadQuery(type, query, 'draft')) : null);
      return () => emit('entry.delete', type, entry);
    },
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
    else if (attribute.type === 'dynamiczone') populate[attribute.name] = { on: Object.fromEntries(attribute.components.map((uid) => [uid, nested(uid)])) };
  }
  return populate;
}
