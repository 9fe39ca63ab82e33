import type { LoggedWrite } from './write-load.js';

/*
 * Checks of a write workload's log (write-load.ts) against the database afterwards: every answer
 * as expected, every acknowledged write readable, no deleted document back, one draft and at
 * most one published row per locale, and no orphan component, link or media-link row.
 */

/** Runs one SQL statement (no parameters) and returns its rows. */
export type SqlReader = (sql: string) => Promise<Record<string, unknown>[]>;

const EXPECTED: Record<LoggedWrite['op'], readonly number[]> = {
  create: [201],
  update: [200, 404],
  delete: [204, 404],
};

/** The writes answered with a status their operation should never get (5xx, a 400 for a valid body…). */
export function unexpectedAnswers(log: readonly LoggedWrite[], allowUnanswered = false): string[] {
  return log
    .filter((write) => (write.status === undefined ? !allowUnanswered : !EXPECTED[write.op].includes(write.status)))
    .map((write) =>
      `${write.op} ${write.documentId} ${write.locale} ${write.marker}: ${write.status ?? 'no answer'} ${write.error ?? ''}`.trim(),
    );
}

interface VersionRow {
  readonly documentId: string;
  readonly locale: string;
  readonly published: boolean;
  readonly summary: string | null;
}

/**
 * Problems with the articles table after the load. With `allowUnanswered` (a killed server),
 * a write that got no answer may or may not have committed; every answered one must hold.
 * The version left must be the marker of an acknowledged write that no other acknowledged write
 * of that version followed (sent after its answer came): the last one, or one of those racing last.
 */
export async function finalStateProblems(
  log: readonly LoggedWrite[],
  sql: SqlReader,
  allowUnanswered = false,
): Promise<string[]> {
  const problems: string[] = [];
  const rows: VersionRow[] = (await sql('select document_id, locale, published_at, summary from articles')).map(
    (row) => ({
      documentId: String(row.document_id),
      locale: String(row.locale),
      published: row.published_at !== null,
      summary: row.summary === null ? null : String(row.summary),
    }),
  );
  const byDocument = new Map<string, VersionRow[]>();
  for (const row of rows) byDocument.set(row.documentId, [...(byDocument.get(row.documentId) ?? []), row]);

  const deleted = new Set(log.filter((w) => w.op === 'delete' && w.status === 204).map((w) => w.documentId));
  for (const documentId of deleted) {
    if (byDocument.has(documentId))
      problems.push(`deleted document ${documentId} still has ${byDocument.get(documentId)?.length} row(s)`);
  }
  const committed = (w: LoggedWrite) => w.status === 200 || w.status === 201;
  const mayHaveCommitted = (w: LoggedWrite) => committed(w) || (allowUnanswered && w.status === undefined);
  const maybeDeleted = new Set(
    log
      .filter((w) => w.op === 'delete' && (w.status === 204 || (allowUnanswered && w.status === undefined)))
      .map((w) => w.documentId),
  );
  for (const created of log.filter((w) => w.op === 'create' && w.status === 201)) {
    if (!maybeDeleted.has(created.documentId) && !byDocument.has(created.documentId))
      problems.push(`created document ${created.documentId} (${created.marker}) is missing`);
  }

  for (const [documentId, versions] of byDocument) {
    if (deleted.has(documentId)) continue;
    for (const locale of new Set(versions.map((v) => v.locale))) {
      const drafts = versions.filter((v) => v.locale === locale && !v.published);
      const published = versions.filter((v) => v.locale === locale && v.published);
      if (drafts.length !== 1) problems.push(`${documentId} ${locale}: ${drafts.length} draft rows`);
      if (published.length > 1) problems.push(`${documentId} ${locale}: ${published.length} published rows`);
      // A create that got no answer has no known documentId: it is recognised by its marker.
      const writes = log.filter(
        (w) =>
          (w.documentId === documentId || (w.op === 'create' && w.documentId === '')) &&
          w.locale === locale &&
          w.op !== 'delete',
      );
      const draftWrites = writes.filter(mayHaveCommitted);
      const publishWrites = draftWrites.filter((w) => w.publishes);
      problems.push(
        ...markerProblems(`${documentId} ${locale} draft`, drafts[0]?.summary, draftWrites, writes.filter(committed)),
      );
      if (published.length === 0 && publishWrites.some(committed))
        problems.push(`${documentId} ${locale}: acknowledged publish but no published row`);
      if (published.length > 0) {
        problems.push(
          ...markerProblems(
            `${documentId} ${locale} published`,
            published[0]?.summary,
            publishWrites,
            writes.filter((w) => committed(w) && w.publishes),
          ),
        );
      }
    }
  }
  return problems;
}

/** The stored marker must come from a candidate write that no acknowledged write followed. */
function markerProblems(
  what: string,
  stored: string | null | undefined,
  candidates: readonly LoggedWrite[],
  acknowledged: readonly LoggedWrite[],
): string[] {
  if (stored === undefined) return [];
  const source = candidates.find((w) => w.marker === stored);
  if (!source) return [`${what}: holds ${stored}, written by no acknowledged write`];
  const later = acknowledged.find((w) => source.answeredAt !== undefined && w.sentAt > source.answeredAt);
  return later ? [`${what}: holds ${stored}, but ${later.marker} was acknowledged after it`] : [];
}

/** Orphan counts of the blog example's component, link and media-link tables (all should be 0). */
const ORPHAN_QUERIES: Readonly<Record<string, string>> = {
  'seo rows without a link': `select count(*) as n from components_shared_seos c where not exists (select 1 from articles_cmps l where l.cmp_id = c.id and l.component_type = 'shared.seo') and not exists (select 1 from globals_cmps l where l.cmp_id = c.id and l.component_type = 'shared.seo')`,
  'keyword rows without a link': `select count(*) as n from components_shared_keywords c where not exists (select 1 from components_shared_seos_cmps l where l.cmp_id = c.id and l.component_type = 'shared.keyword')`,
  'quote rows without a link': `select count(*) as n from components_shared_quotes c where not exists (select 1 from articles_cmps l where l.cmp_id = c.id and l.component_type = 'shared.quote')`,
  'rich-text rows without a link': `select count(*) as n from components_shared_rich_texts c where not exists (select 1 from articles_cmps l where l.cmp_id = c.id and l.component_type = 'shared.rich-text')`,
  'media-block rows without a link': `select count(*) as n from components_shared_media_blocks c where not exists (select 1 from articles_cmps l where l.cmp_id = c.id and l.component_type = 'shared.media-block')`,
  'article component links to nothing': `select count(*) as n from articles_cmps l where not exists (select 1 from articles a where a.id = l.entity_id)
    or (l.component_type = 'shared.seo' and not exists (select 1 from components_shared_seos c where c.id = l.cmp_id))
    or (l.component_type = 'shared.quote' and not exists (select 1 from components_shared_quotes c where c.id = l.cmp_id))
    or (l.component_type = 'shared.rich-text' and not exists (select 1 from components_shared_rich_texts c where c.id = l.cmp_id))
    or (l.component_type = 'shared.media-block' and not exists (select 1 from components_shared_media_blocks c where c.id = l.cmp_id))`,
  'keyword links to nothing': `select count(*) as n from components_shared_seos_cmps l where not exists (select 1 from components_shared_seos s where s.id = l.entity_id) or not exists (select 1 from components_shared_keywords c where c.id = l.cmp_id)`,
  'tag links to nothing':
    'select count(*) as n from articles_tags_lnk l where not exists (select 1 from articles a where a.id = l.article_id) or not exists (select 1 from tags t where t.id = l.tag_id)',
  'author links to nothing':
    'select count(*) as n from articles_author_lnk l where not exists (select 1 from articles a where a.id = l.article_id) or not exists (select 1 from authors t where t.id = l.author_id)',
  'quote author links to nothing':
    'select count(*) as n from components_shared_quotes_author_lnk l where not exists (select 1 from components_shared_quotes q where q.id = l.quote_id) or not exists (select 1 from authors t where t.id = l.author_id)',
  'media links to nothing': `select count(*) as n from files_related_mph l where not exists (select 1 from files f where f.id = l.file_id)
    or (l.related_type = 'api::article.article' and not exists (select 1 from articles a where a.id = l.related_id))
    or (l.related_type = 'shared.seo' and not exists (select 1 from components_shared_seos c where c.id = l.related_id))
    or (l.related_type = 'shared.media-block' and not exists (select 1 from components_shared_media_blocks c where c.id = l.related_id))`,
};

/** The orphan kinds found, with their counts (empty when there is none). */
export async function orphanRowProblems(sql: SqlReader): Promise<string[]> {
  const problems: string[] = [];
  for (const [what, query] of Object.entries(ORPHAN_QUERIES)) {
    const count = Number((await sql(query))[0]?.n);
    if (count !== 0) problems.push(`${what}: ${count}`);
  }
  return problems;
}

/**
 * Article rows missing part of what every write of the workload gives them: one seo component
 * with its two keywords and three dynamic-zone items (every create sends them, a full update
 * replaces them with as many, a new locale and a publish copy them). A write cut in half (its
 * row without its components) shows here.
 */
export async function incompleteRowProblems(sql: SqlReader): Promise<string[]> {
  const rows = await sql(`select a.id, a.document_id, a.locale, a.published_at,
      (select count(*) from articles_cmps l where l.entity_id = a.id and l.field = 'seo') as seo,
      (select count(*) from articles_cmps l where l.entity_id = a.id and l.field = 'blocks') as blocks,
      (select count(*) from articles_cmps l join components_shared_seos_cmps k on k.entity_id = l.cmp_id
        where l.entity_id = a.id and l.field = 'seo' and k.field = 'keywords') as keywords
    from articles a`);
  return rows
    .filter((row) => Number(row.seo) !== 1 || Number(row.blocks) !== 3 || Number(row.keywords) !== 2)
    .map(
      (row) =>
        `article row ${row.id} (${row.document_id} ${row.locale} ${row.published_at === null ? 'draft' : 'published'}): seo ${row.seo}, blocks ${row.blocks}, keywords ${row.keywords}`,
    );
}

/**
 * Published versions that are not a copy of their draft although the last write of that locale
 * published (both hold the same marker): their relations (localized, so only this locale's
 * writes change them) must be the draft's. A publish that raced another write could copy an
 * out-of-date draft, or keep links of the version it replaced. (Components here are shared
 * between locales: a draft-only write of another locale changes this locale's draft alone.)
 */
export async function publishedCopyProblems(sql: SqlReader): Promise<string[]> {
  const versions = new Map<string, { summary: string; author: string; tags: string[] }>();
  const get = (row: Record<string, unknown>) => {
    const key = `${row.document_id} ${row.locale} ${row.published_at === null ? 'draft' : 'published'}`;
    let found = versions.get(key);
    if (!found) versions.set(key, (found = { summary: String(row.summary), author: '', tags: [] }));
    return found;
  };
  for (const row of await sql('select document_id, locale, published_at, summary from articles')) get(row);
  for (const row of await sql(
    'select a.document_id, a.locale, a.published_at, t.document_id as target from articles a join articles_author_lnk l on l.article_id = a.id join authors t on t.id = l.author_id',
  )) {
    get(row).author = String(row.target);
  }
  for (const row of await sql(
    'select a.document_id, a.locale, a.published_at, t.document_id as target from articles a join articles_tags_lnk l on l.article_id = a.id join tags t on t.id = l.tag_id order by l.tag_ord',
  )) {
    get(row).tags.push(String(row.target));
  }
  const problems: string[] = [];
  for (const [key, published] of versions) {
    if (!key.endsWith(' published')) continue;
    const draft = versions.get(key.replace(/ published$/, ' draft'));
    if (!draft || draft.summary !== published.summary) continue;
    if (draft.author !== published.author || draft.tags.join() !== published.tags.join()) {
      problems.push(
        `${key} (${published.summary}): author ${published.author}, tags ${published.tags.join()}; its draft: author ${draft.author}, tags ${draft.tags.join()}`,
      );
    }
  }
  return problems;
}
