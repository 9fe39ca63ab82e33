import { beforeAll, describe, expect, it } from 'vitest';
import { loadProject } from '../project/load-project.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import type { EntryEvent, EntryReader } from '../webhooks/entry-reader.js';
import type { DeletingNotice, WebhookItem } from '../webhooks/webhook-pipeline.js';
import { createContentEvents } from './content-events.js';

// What a delete hands to the webhooks (issue 9): the document's entries before the delete (kept
// for the events of earlier writes read after it), then its entry.delete once it committed, or,
// when it failed, only the word to forget them (they would otherwise stay kept until evicted).
// The bodies come from a fixed reader: the real one is covered by the webhook tests over HTTP.

const EXAMPLE = new URL('../../examples/blog', import.meta.url).pathname;

/** Answers every entry with a body naming its status (as the real reader's JSON text). */
const reader: EntryReader = {
  bodies: async (events: readonly EntryEvent[]) =>
    events.map((event) =>
      JSON.stringify({ event: event.event, entry: { documentId: event.documentId, status: event.status } }),
    ),
};

function recordingWebhooks(wanted: readonly string[]) {
  const notices: DeletingNotice[] = [];
  const sent: WebhookItem[][] = [];
  return {
    notices,
    sent,
    webhooks: {
      wants: (event: string) => wanted.includes(event),
      deleting: (notice: DeletingNotice) => void notices.push(notice),
      send: (items: readonly WebhookItem[]) => void sent.push([...items]),
    },
  };
}

describe('content events of a delete', () => {
  let article: ContentType;
  let query: Query;
  beforeAll(async () => {
    const { schema, config } = await loadProject(EXAMPLE, {});
    article = schema.contentTypes.get('api::article.article') as ContentType;
    query = normalizeQuery(schema, article, {}, { api: config.api, defaultLocale: config.i18n.defaultLocale });
  });

  it('with create and delete webhooks: the entries are kept before the delete; a committed delete sends entry.delete (the published entry) and forgets them', async () => {
    const { notices, sent, webhooks } = recordingWebhooks(['entry.create', 'entry.delete']);
    const done = await createContentEvents(webhooks, reader).deleting(article, 'doc1', query);
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(Object.keys(notice?.bodies ?? {}).sort()).toEqual(['draft', 'published']);
    expect(sent).toEqual([]);
    done(true);
    expect(sent).toEqual([
      [{ kind: 'built', event: 'entry.delete', body: notice?.bodies.published, forget: notice?.key }],
    ]);
  });

  it('a delete that failed sends no entry.delete, only the word to forget the kept entries', async () => {
    const { notices, sent, webhooks } = recordingWebhooks(['entry.create', 'entry.delete']);
    const done = await createContentEvents(webhooks, reader).deleting(article, 'doc2', query);
    done(false);
    expect(sent).toEqual([[{ kind: 'forget', key: notices[0]?.key }]]);
  });

  it('with only a delete webhook nothing is kept: a committed delete sends entry.delete alone, a failed one nothing', async () => {
    const { notices, sent, webhooks } = recordingWebhooks(['entry.delete']);
    const events = createContentEvents(webhooks, reader);
    (await events.deleting(article, 'doc3', query))(true);
    (await events.deleting(article, 'doc4', query))(false);
    expect(notices).toEqual([]);
    expect(sent).toEqual([[{ kind: 'built', event: 'entry.delete', body: expect.stringContaining('"doc3"') }]]);
  });
});
