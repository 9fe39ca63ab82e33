import { fileEntry, insertFile } from './files.js';
import { dbStep, type Step } from './scenario.js';
import { authorEntry, ID, TS } from './shapes.js';

/*
 * The blog content the populate scenarios read, and the entries Strapi 5.54 answers for it
 * (/tmp/dump/10-populate.txt, 11-populate-components-dz.txt): flat populated entries, relations in
 * connection order, components with `id` only, DZ items with `__component`. Variables: `<key>` is
 * a documentId, `<key>Id` a row id.
 */

/** Stores a file row (no upload endpoint yet); saves its id as `<key>Id` and documentId as `<key>Doc`. */
export function seedFile(key: string, name: string, options: Parameters<typeof insertFile>[2] = {}): Step {
  return dbStep(`seed file ${name}`, async ({ server, vars }) => {
    const id = await insertFile(server, name, options);
    const rows = await server.app.db.all({ sql: `select document_id from files where id = ${Number(id)}`, params: [] });
    vars[`${key}Id`] = id;
    vars[`${key}Doc`] = rows[0]?.document_id;
  });
}

/** A populated media entry as stored by `seedFile` (no `isUrlSigned` inside content). */
const media = (
  key: string,
  name: string,
  options: { mime?: string; width?: number | null; height?: number | null } = {},
) => fileEntry(name, { id: `{{${key}Id}}`, documentId: `{{${key}Doc}}`, ...options });
/** a1's cover. */
export const COVER = media('cover', 'cover.png');
/** a1's seo.shareImage. */
export const SHARE = media('share', 'share.png');
/** The first file of a1's gallery. */
export const PHOTO = media('photo', 'photo.png');
/** The second file of a1's gallery and the file of its media block (not an image). */
export const NOTES = media('notes', 'notes.txt', { mime: 'text/plain', width: null, height: null });

/** Author Ada (default fields), a1's and a2's author. */
export const ADA = authorEntry('ada', 'Ada Lovelace', { id: '{{adaId}}', email: 'ada@example.com' });
/** Author Grace (default fields), a1's editor and the author of its first quote. */
export const GRACE = authorEntry('grace', 'Grace Hopper', { id: '{{graceId}}' });
const tag = (key: string, name: string) => ({
  id: `{{${key}Id}}`,
  documentId: `{{${key}}}`,
  name,
  createdAt: TS,
  updatedAt: TS,
  publishedAt: TS,
});
/** Tag javascript (default fields). */
export const JS = tag('js', 'javascript');
/** Tag databases (default fields). */
export const DB = tag('db', 'databases');
/** Tag java (default fields). */
export const JAVA = tag('java', 'java');

/** `{id, documentId, <field>: value}` — an entry populated with `fields[0]=<field>`. */
export const slim = (key: string, field: string, value: unknown, id: unknown = `{{${key}Id}}`) => ({
  id,
  documentId: `{{${key}}}`,
  [field]: value,
});
/** Ada read with `fields[0]=name`. */
export const ADA_NAME = slim('ada', 'name', 'Ada Lovelace');
/** Grace read with `fields[0]=name`. */
export const GRACE_NAME = slim('grace', 'name', 'Grace Hopper');
/** Tag javascript read with `fields[0]=name`. */
export const JS_NAME = slim('js', 'name', 'javascript');
/** Tag databases read with `fields[0]=name`. */
export const DB_NAME = slim('db', 'name', 'databases');
/** Tag java read with `fields[0]=name`. */
export const JAVA_NAME = slim('java', 'name', 'java');

/** `{id, documentId, title}` — an article read with `fields[0]=title`. */
export const title = (key: string, value: string) => ({ id: `{{${key}Id}}`, documentId: `{{${key}}}`, title: value });
/** a1 read with `fields[0]=title`. */
export const A1_TITLE = title('a1', 'Hello Strapi');
/** a2 read with `fields[0]=title`. */
export const A2_TITLE = title('a2', 'Second post');

/** A default-fields published article (blog example, scalar values left at their defaults). */
const article = (key: string, title: string, views: number) => ({
  id: `{{${key}Id}}`,
  documentId: `{{${key}}}`,
  title,
  slug: null,
  summary: null,
  body: null,
  content: null,
  views,
  rating: null,
  price: null,
  bigcount: null,
  isFeatured: false,
  publishDate: null,
  publishTime: null,
  eventAt: null,
  stamp: null,
  meta: null,
  category: null,
  contactEmail: null,
  createdAt: TS,
  updatedAt: TS,
  publishedAt: TS,
  locale: 'en',
});
/** a1 with default fields. */
export const A1 = article('a1', 'Hello Strapi', 10);
/** a2 with default fields. */
export const A2 = article('a2', 'Second post', 3);

/** a1's dynamic zone with no nested populate: relations and media inside components absent. */
export const BLOCKS = [
  { __component: 'shared.quote', id: ID, title: 'Q1', body: 'To be' },
  { __component: 'shared.rich-text', id: ID, body: 'Rich **text**' },
  { __component: 'shared.media-block', id: ID },
  { __component: 'shared.quote', id: ID, title: 'Q2', body: null },
];
/** a1's seo component, scalars only. */
export const SEO = { id: ID, metaTitle: 'Hello SEO', metaDescription: 'About hello' };
/** a1's seo.keywords, in written order. */
export const KEYWORDS = [
  { id: ID, word: 'cms' },
  { id: ID, word: 'strapi' },
  { id: ID, word: 'api' },
];

/** What `populate=*` adds to a1 (one level deep). */
export const A1_STAR = {
  author: ADA,
  editor: GRACE,
  tags: [JAVA, JS, DB],
  cover: COVER,
  gallery: [PHOTO, NOTES],
  seo: SEO,
  blocks: BLOCKS,
  localizations: [],
};
/** What `populate=*` adds to a2 (one level deep). */
export const A2_STAR = {
  author: ADA,
  editor: null,
  tags: [JAVA],
  cover: null,
  gallery: [],
  seo: null,
  blocks: [],
  localizations: [],
};

/** Seeds authors Ada and Grace, tags javascript (js), databases (db), java, four files, published articles a1 (everything set) and a2, and draft-only a3. */
export const POPULATE_SEED: Step[] = [
  {
    name: 'seed author Ada',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Ada Lovelace', email: 'ada@example.com' } },
    status: 201,
    save: { ada: 'data.documentId', adaId: 'data.id' },
  },
  {
    name: 'seed author Grace',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Grace Hopper' } },
    status: 201,
    save: { grace: 'data.documentId', graceId: 'data.id' },
  },
  {
    name: 'seed tag javascript',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: 'javascript' } },
    status: 201,
    save: { js: 'data.documentId', jsId: 'data.id' },
  },
  {
    name: 'seed tag databases',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: 'databases' } },
    status: 201,
    save: { db: 'data.documentId', dbId: 'data.id' },
  },
  {
    name: 'seed tag java',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: 'java' } },
    status: 201,
    save: { java: 'data.documentId', javaId: 'data.id' },
  },
  seedFile('cover', 'cover.png'),
  seedFile('share', 'share.png'),
  seedFile('notes', 'notes.txt', { mime: 'text/plain', width: null, height: null }),
  seedFile('photo', 'photo.png'),
  {
    name: 'seed article a1 with every kind of relation, media, component and DZ item',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: {
      data: {
        title: 'Hello Strapi',
        views: 10,
        author: '{{ada}}',
        editor: '{{grace}}',
        tags: ['{{java}}', '{{js}}', '{{db}}'],
        cover: '{{coverId}}',
        gallery: ['{{photoId}}', '{{notesId}}'],
        seo: {
          metaTitle: 'Hello SEO',
          metaDescription: 'About hello',
          shareImage: '{{shareId}}',
          keywords: [{ word: 'cms' }, { word: 'strapi' }, { word: 'api' }],
        },
        blocks: [
          { __component: 'shared.quote', title: 'Q1', body: 'To be', author: '{{grace}}' },
          { __component: 'shared.rich-text', body: 'Rich **text**' },
          { __component: 'shared.media-block', file: '{{notesId}}' },
          { __component: 'shared.quote', title: 'Q2' },
        ],
      },
    },
    status: 201,
    save: { a1: 'data.documentId' },
  },
  {
    name: 'seed article a2',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Second post', views: 3, author: '{{ada}}', tags: ['{{java}}'] } },
    status: 201,
    save: { a2: 'data.documentId' },
  },
  {
    name: 'seed draft-only article a3',
    method: 'POST',
    path: '/api/articles?status=draft&fields[0]=title',
    body: { data: { title: 'Draft only post', author: '{{grace}}', tags: ['{{js}}'] } },
    status: 201,
    save: { a3: 'data.documentId' },
  },
  {
    name: 'remember the published id of a1',
    path: '/api/articles/{{a1}}?fields[0]=title',
    status: 200,
    save: { a1Id: 'data.id' },
  },
  {
    name: 'remember the published id of a2',
    path: '/api/articles/{{a2}}?fields[0]=title',
    status: 200,
    save: { a2Id: 'data.id' },
  },
];
