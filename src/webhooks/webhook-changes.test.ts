import { beforeAll, describe, expect, it } from 'vitest';
import { createChangeBus, type DocumentChange } from '../events/change-bus.js';
import { loadProject } from '../project/load-project.js';
import type { ContentType } from '../schema/types.js';
import type { EntryEvent, EntryReader } from './entry-reader.js';
import { webhookChanges } from './webhook-changes.js';
import type { DeletingNotice, WebhookItem } from './webhook-pipeline.js';

// What the webhooks make of the change bus (issues 9 and 17). A delete: the document's entries
// before it (kept for the events of earlier writes read after it), then its entry.delete once it
// committed, or, when it failed, only the word to forget them. Other changes: the entry event to
// read after the write, when a webhook wants it. The bodies come from a fixed reader: the real one
// is covered by the webhook tests over HTTP.

const EXAMPLE = new URL('../../examples/blog', import.meta.url).pathname;
const AT = new Date('2026-11-24T10:00:00.000Z');

/** Answers every entry with a body naming its status (as the real reader's JSON text). */
const reader: EntryReader = {
  bodies: async (events: readonly EntryEvent[]) =>
    events.map((event) =>
      JSON.stringify({ event: event.event, entry: { documentId: event.documentId, status: event.status } }),
    ),
};

/** A bus with the webhooks' listener on it, recording what it hands to the webhooks. */
function recordingBus(wanted: readonly string[]) {
  const notices: DeletingNotice[] = [];
  const sent: WebhookItem[][] = [];
  const errors: unknown[] = [];
  const bus = createChangeBus((error) => errors.push(error));
  const webhooks = {
    wants: (event: string) => wanted.includes(event),
    deleting: (notice: DeletingNotice) => void notices.push(notice),
    send: (items: readonly WebhookItem[]) => void sent.push([...items]),
  };
  bus.subscribe(webhookChanges(webhooks, reader));
  return { bus, notices, sent, errors };
}

describe('webhooks on the change bus', () => {
  let article: ContentType;
  let tag: ContentType;
  const change = (
    type: ContentType,
    kind: DocumentChange['kind'],
    documentId: string,
    published = false,
  ): DocumentChange => ({
    subject: 'document',
    kind,
    type,
    documentId,
    locale: 'en',
    published,
    at: AT,
  });
  beforeAll(async () => {
    const { schema } = await loadProject(EXAMPLE, {});
    article = schema.contentTypes.get('api::article.article') as ContentType;
    tag = schema.contentTypes.get('api::tag.tag') as ContentType;
  });

  it('with create and delete webhooks: the entries are kept before the delete; a committed delete sends entry.delete (the published entry) and forgets them', async () => {
    const { bus, notices, sent } = recordingBus(['entry.create', 'entry.delete']);
    const done = await bus.deleting(change(article, 'delete', 'doc1'));
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(Object.keys(notice?.bodies ?? {}).sort()).toEqual(['draft', 'published']);
    expect(sent).toEqual([]);
    done(true);
    expect(sent).toEqual([
      [{ kind: 'built', event: 'entry.delete', body: notice?.bodies.published, forget: notice?.key }],
    ]);
  });

  it('a row-level change (strapi.db.query) sends no webhook, as Strapi fires none for the Query Engine', () => {
    const { bus, sent } = recordingBus(['entry.create', 'entry.update', 'entry.publish']);
    bus.publish({ ...change(tag, 'create', 'doc-rows', true), rowLevel: true });
    bus.publish({ ...change(article, 'update', 'doc-rows', true), rowLevel: true });
    expect(sent).toEqual([]);
    bus.publish(change(tag, 'create', 'doc-documents'));
    expect(sent).toHaveLength(1);
  });

  it('a delete that failed sends no entry.delete, only the word to forget the kept entries', async () => {
    const { bus, notices, sent } = recordingBus(['entry.create', 'entry.delete']);
    (await bus.deleting(change(article, 'delete', 'doc2')))(false);
    expect(sent).toEqual([[{ kind: 'forget', key: notices[0]?.key }]]);
  });

  it('with only a delete webhook nothing is kept: a committed delete sends entry.delete alone, a failed one nothing', async () => {
    const { bus, notices, sent } = recordingBus(['entry.delete']);
    (await bus.deleting(change(article, 'delete', 'doc3')))(true);
    (await bus.deleting(change(article, 'delete', 'doc4')))(false);
    expect(notices).toEqual([]);
    expect(sent).toEqual([[{ kind: 'built', event: 'entry.delete', body: expect.stringContaining('"doc3"') }]]);
  });

  it('create, update, publish and unpublish: the entry to read, with its status; discard sends nothing; unwanted events nothing', () => {
    const { bus, sent } = recordingBus(['entry.create', 'entry.update', 'entry.publish', 'entry.unpublish']);
    for (const kind of ['create', 'update', 'publish', 'unpublish', 'discard'] as const) {
      bus.publish(change(article, kind, 'doc5'));
    }
    bus.publish(change(tag, 'create', 'doc6'));
    const entry = (event: string, status: string, model: ContentType, documentId: string) => ({
      kind: 'read',
      entry: {
        event,
        createdAt: AT.toISOString(),
        model: model.singularName,
        uid: model.uid,
        documentId,
        locale: 'en',
        status,
      },
    });
    expect(sent).toEqual([
      [entry('entry.create', 'draft', article, 'doc5')],
      [entry('entry.update', 'draft', article, 'doc5')],
      [entry('entry.publish', 'published', article, 'doc5')],
      [entry('entry.unpublish', 'draft', article, 'doc5')],
      // Tags have no draft & publish: their only version is the published one.
      [entry('entry.create', 'published', tag, 'doc6')],
    ]);
    // A create that published: entry.create then entry.publish, handed over together.
    sent.length = 0;
    bus.publish(change(article, 'create', 'doc8', true));
    expect(sent).toEqual([
      [entry('entry.create', 'draft', article, 'doc8'), entry('entry.publish', 'published', article, 'doc8')],
    ]);
    const quiet = recordingBus(['entry.delete']);
    quiet.bus.publish(change(article, 'create', 'doc7'));
    expect(quiet.sent).toEqual([]);
  });

  it('a media change: its webhook event with the file, built here', () => {
    const { bus, sent } = recordingBus(['media.create']);
    bus.publish({ subject: 'media', kind: 'create', file: { id: 1, name: 'a.png' }, at: AT });
    bus.publish({ subject: 'media', kind: 'delete', file: { id: 1, name: 'a.png' }, at: AT });
    const body = JSON.stringify({
      event: 'media.create',
      createdAt: AT.toISOString(),
      media: { id: 1, name: 'a.png' },
    });
    expect(sent).toEqual([[{ kind: 'built', event: 'media.create', body }]]);
  });
});

describe('change bus', () => {
  it('a failing listener is reported and the others still hear the change; unsubscribe stops delivery', async () => {
    const errors: unknown[] = [];
    const bus = createChangeBus((error) => errors.push(error));
    const heard: string[] = [];
    bus.subscribe({
      changed() {
        throw new Error('listener failure');
      },
      async deleting() {
        throw new Error('deleting failure');
      },
    });
    const off = bus.subscribe({ changed: (change) => void heard.push(change.kind) });
    bus.publish({ subject: 'media', kind: 'update', file: {}, at: AT });
    // A delete's change is published once it committed, not before and not when it failed.
    const failed = await bus.deleting({
      subject: 'document',
      kind: 'delete',
      type: {} as ContentType,
      documentId: 'x',
      locale: null,
      published: false,
      at: AT,
    });
    failed(false);
    const committed = await bus.deleting({
      subject: 'document',
      kind: 'delete',
      type: {} as ContentType,
      documentId: 'y',
      locale: null,
      published: false,
      at: AT,
    });
    expect(heard).toEqual(['update']);
    committed(true);
    expect(heard).toEqual(['update', 'delete']);
    off();
    bus.publish({ subject: 'media', kind: 'create', file: {}, at: AT });
    expect(heard).toEqual(['update', 'delete']);
    expect(errors.map((error) => (error as Error).message)).toEqual([
      'listener failure',
      'deleting failure',
      'deleting failure',
      'listener failure',
      'listener failure',
    ]);
  });
});
