import { expect } from 'vitest';
import { queryRows } from '../support/row-counts.js';
import { dbStep, errorBody, scenario, type Vars } from '../support/scenario.js';
import { DOC, ID, single } from '../support/shapes.js';
import {
  expectEvents,
  expectUploadCounts,
  NOTES,
  populatedFile,
  recordEvents,
  saveUploadCounts,
  testImages,
  uploadedFile,
  uploadStep,
} from '../support/uploads.js';

// Files and documents: POST /api/upload with ref/refId/field links the new files to one row's
// media attribute (files_related_mph), and media attributes written by file id are checked against
// allowedTypes and multiple, populated with Strapi's media shape (no isUrlSigned) and filterable.
// Strapi links whatever ref/refId/field say; Cairn answers 400 for an unknown model, attribute or
// row (after deleting what it stored), and appends to a multiple attribute / replaces a single one.

const images = await testImages();
const png = (filename: string, content: Buffer = images.png64) => ({ filename, content, contentType: 'image/png' });
const text = (filename: string) => ({ filename, content: NOTES, contentType: 'text/plain' });
const ARTICLE = 'api::article.article';
const MEDIA_NAMES = 'fields[0]=title&populate[cover][fields][0]=name&populate[gallery][fields][0]=name';
const named = (idVar: string, name: string) => ({ id: `{{${idVar}}}`, documentId: DOC, name });
const PNG64 = { ext: '.png', mime: 'image/png', width: 64, height: 64 } as const;
const TEXT = { ext: '.txt', mime: 'text/plain', size: 0.04 } as const;

/** The media links of one row, as stored. */
async function links(
  server: Parameters<typeof queryRows>[0],
  type: string,
  rowId: unknown,
): Promise<{ file: number; field: string; order: number }[]> {
  const rows = await queryRows(
    server,
    `select file_id, field, ${server.database === 'mysql' ? '`order`' : '"order"'} as ord from files_related_mph where related_type = '${type}' and related_id = ${Number(rowId)} order by field, ${server.database === 'mysql' ? '`order`' : '"order"'}`,
  );
  return rows.map((row) => ({ file: Number(row.file_id), field: String(row.field), order: Number(row.ord) }));
}
const refused = (message: string) => ({ status: 400, equal: errorBody(400, 'ValidationError', message, {}) });
const fileIds = (vars: Vars, ...names: string[]) => names.map((name) => Number(vars[name]));

scenario('ref/refId/field links uploads to an entry; media attributes: allowedTypes, multiple, populate, filters', [
  {
    name: 'an article (draft and published rows)',
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data: { title: 'Linked' } },
    status: 201,
    save: { article: 'data.documentId', published: 'data.id' },
  },
  dbStep('its draft row id', async ({ vars, server }) => {
    const [draft] = await queryRows(
      server,
      `select id from articles where document_id = '${String(vars.article)}' and published_at is null`,
    );
    vars.draft = Number(draft!.id);
  }),
  recordEvents(),
  saveUploadCounts('counts before', 'base'),

  uploadStep(
    "upload linked to the published row's cover (upload-with-ref)",
    { files: [png('c1.png')], ref: ARTICLE, refId: '{{published}}', field: 'cover' },
    {
      status: 201,
      equal: [uploadedFile({ name: 'c1.png', slug: 'c1', ...PNG64 })],
      save: { c1: '0.id' },
    },
  ),
  {
    name: 'the article shows it',
    path: `/api/articles/{{article}}?${MEDIA_NAMES}`,
    status: 200,
    equal: single({ id: ID, documentId: '{{article}}', title: 'Linked', cover: named('c1', 'c1.png'), gallery: [] }),
  },
  dbStep('one files_related_mph row: file, row id, model uid, field, order 1', async ({ vars, server }) => {
    expect(await links(server, ARTICLE, vars.published)).toEqual([{ file: vars.c1, field: 'cover', order: 1 }]);
  }),
  {
    name: 'only the given row is linked: the draft has no cover',
    path: `/api/articles/{{article}}?status=draft&${MEDIA_NAMES}`,
    status: 200,
    check: (r) => expect(r.json.data.cover).toBeNull(),
  },
  uploadStep(
    'a second upload to the single cover replaces the first',
    { files: [png('c2.png')], ref: ARTICLE, refId: '{{published}}', field: 'cover' },
    { status: 201, save: { c2: '0.id' } },
  ),
  {
    name: 'the cover is the new file',
    path: `/api/articles/{{article}}?${MEDIA_NAMES}`,
    status: 200,
    check: (r, { vars }) => expect(r.json.data.cover).toEqual({ id: vars.c2, documentId: DOC, name: 'c2.png' }),
  },
  uploadStep(
    'two files linked to the gallery, in order',
    { files: [png('g1.png'), text('g2.txt')], ref: ARTICLE, refId: '{{published}}', field: 'gallery' },
    {
      status: 201,
      equal: [
        uploadedFile({ name: 'g1.png', slug: 'g1', ...PNG64 }),
        uploadedFile({ name: 'g2.txt', slug: 'g2', ...TEXT }),
      ],
      save: { g1: '0.id', g2: '1.id' },
    },
  ),
  uploadStep(
    'a third is appended',
    { files: [png('g3.png')], ref: ARTICLE, refId: '{{published}}', field: 'gallery' },
    { status: 201, save: { g3: '0.id' } },
  ),
  {
    name: 'the gallery in upload order',
    path: `/api/articles/{{article}}?${MEDIA_NAMES}`,
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{article}}',
      title: 'Linked',
      cover: named('c2', 'c2.png'),
      gallery: [named('g1', 'g1.png'), named('g2', 'g2.txt'), named('g3', 'g3.png')],
    }),
  },
  dbStep(
    "the published row's links: one cover, three gallery files ordered 1, 2, 3; the draft's: none",
    async ({ vars, server }) => {
      const [c2, g1, g2, g3] = fileIds(vars, 'c2', 'g1', 'g2', 'g3');
      expect(await links(server, ARTICLE, vars.published)).toEqual([
        { file: c2, field: 'cover', order: 1 },
        { file: g1, field: 'gallery', order: 1 },
        { file: g2, field: 'gallery', order: 2 },
        { file: g3, field: 'gallery', order: 3 },
      ]);
      expect(await links(server, ARTICLE, vars.draft)).toEqual([]);
    },
  ),
  expectUploadCounts("five files, four links (c1's was replaced), five objects", 'base', {
    files: 5,
    links: 4,
    objects: 5,
  }),
  expectEvents('media.create for each file', () =>
    Array.from({ length: 5 }, () => expect.objectContaining({ event: 'media.create' })),
  ),
  {
    name: 'an author',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Ada' } },
    status: 201,
    save: { ada: 'data.documentId', adaId: 'data.id' },
  },
  uploadStep(
    "an upload linked to the author's avatar",
    { files: [png('linked.png')], ref: 'api::author.author', refId: '{{adaId}}', field: 'avatar' },
    { status: 201, save: { avatar: '0.id' } },
  ),
  {
    name: 'the author shows it (author-avatar-after-ref-upload)',
    path: '/api/authors/{{ada}}?fields[0]=name&populate[avatar][fields][0]=name',
    status: 200,
    equal: single({ id: ID, documentId: '{{ada}}', name: 'Ada', avatar: named('avatar', 'linked.png') }),
  },
  {
    name: 'an article with an empty media block',
    method: 'POST',
    path: '/api/articles?fields[0]=title&populate=blocks',
    body: { data: { title: 'Blocks', blocks: [{ __component: 'shared.media-block' }] } },
    status: 201,
    save: { blocks: 'data.documentId', block: 'data.blocks.0.id' },
  },
  uploadStep(
    "an upload linked to the component row's file",
    { files: [png('in-block.png')], ref: 'shared.media-block', refId: '{{block}}', field: 'file' },
    { status: 201, save: { inBlock: '0.id' } },
  ),
  {
    name: 'the media block shows it',
    path: '/api/articles/{{blocks}}?fields[0]=title&populate[blocks][on][shared.media-block][populate][file][fields][0]=name',
    status: 200,
    check: (r, { vars }) =>
      expect(r.json.data.blocks).toEqual([
        {
          __component: 'shared.media-block',
          id: vars.block,
          file: { id: vars.inBlock, documentId: DOC, name: 'in-block.png' },
        },
      ]),
  },

  expectEvents("media.create for the avatar and the block's file", () => [
    expect.objectContaining({ event: 'media.create' }),
    expect.objectContaining({ event: 'media.create' }),
  ]),

  // What Cairn refuses (Strapi would link blindly): nothing stored, no row, no link, no event.
  saveUploadCounts('counts before the refused links', 'refused'),
  uploadStep(
    'an unknown ref',
    { files: [png('x.png')], ref: 'api::nope.nope', refId: 1, field: 'cover' },
    refused('Invalid ref "api::nope.nope": no such content type or component'),
  ),
  uploadStep(
    'a plugin model',
    { files: [png('x.png')], ref: 'plugin::users-permissions.user', refId: 1, field: 'avatar' },
    refused('Invalid ref "plugin::users-permissions.user": no such content type or component'),
  ),
  uploadStep(
    'a field that is not media',
    { files: [png('x.png')], ref: ARTICLE, refId: '{{published}}', field: 'title' },
    refused('Invalid field "title": api::article.article has no media attribute of that name'),
  ),
  uploadStep(
    'an unknown field',
    { files: [png('x.png')], ref: ARTICLE, refId: '{{published}}', field: 'nope' },
    refused('Invalid field "nope": api::article.article has no media attribute of that name'),
  ),
  uploadStep(
    'an unknown row id (checked after the files were stored)',
    { files: [png('x.png'), text('y.txt')], ref: ARTICLE, refId: 999999, field: 'gallery' },
    refused('Invalid refId "999999": api::article.article has no row with that id'),
  ),
  uploadStep(
    'a refId that is not a row id',
    { files: [png('x.png')], ref: ARTICLE, refId: 'abc', field: 'cover' },
    refused('Invalid refId "abc": a row id (a positive integer) is expected'),
  ),
  uploadStep(
    'ref without refId and field',
    { files: [png('x.png')], ref: ARTICLE },
    refused('ref, refId and field go together: the model uid, the row id and the media attribute to link the files to'),
  ),
  uploadStep(
    'two files for a single media attribute',
    { files: [png('x.png'), png('y.png')], ref: ARTICLE, refId: '{{published}}', field: 'cover' },
    refused('Cannot link 2 files to cover: it holds a single file'),
  ),
  uploadStep(
    'a text file for an images-only attribute',
    { files: [text('x.txt')], ref: ARTICLE, refId: '{{published}}', field: 'cover' },
    refused('cover accepts images; x.txt is text/plain'),
  ),
  expectUploadCounts('the refused uploads left no file on disk, no row, no link, no temp file', 'refused'),
  expectEvents('and emitted nothing', () => []),
  {
    name: "the article's media are unchanged",
    path: `/api/articles/{{article}}?${MEDIA_NAMES}`,
    status: 200,
    check: (r) => expect(r.json.data.gallery).toHaveLength(3),
  },

  // Media attributes written by file id.
  uploadStep(
    'files for the documents: a text file, a 64×64 PNG, a 320×240 JPEG',
    {
      files: [
        text('t1.txt'),
        png('i1.png'),
        { filename: 'i2.jpg', content: images.jpeg320, contentType: 'image/jpeg' },
      ],
      fileInfo: [{}, { alternativeText: 'one' }],
    },
    { status: 201, save: { t1: '0.id', i1: '1.id', i2: '2.id' } },
  ),
  {
    name: 'a text file as the images-only cover: 400 naming the attribute and the file',
    method: 'PUT',
    path: '/api/articles/{{article}}',
    body: { data: { cover: '{{t1}}' } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'cover accepts images; file {{t1}} (t1.txt) is text/plain', {
      errors: [
        {
          path: ['cover'],
          message: 'cover accepts images; file {{t1}} (t1.txt) is text/plain',
          name: 'ValidationError',
          value: '{{t1}}',
        },
      ],
    }),
  },
  {
    name: "also on create, and for the author's avatar",
    method: 'POST',
    path: '/api/authors',
    body: { data: { name: 'Bob', avatar: '{{t1}}' } },
    status: 400,
    match: {
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'avatar accepts images; file {{t1}} (t1.txt) is text/plain',
      },
    },
  },
  {
    name: 'two files for the single cover: 400',
    method: 'PUT',
    path: '/api/articles/{{article}}',
    body: { data: { cover: ['{{i1}}', '{{i2}}'] } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid media value for cover: it holds a single file, got 2', {}),
  },
  {
    name: 'an unknown file id: 400 (media-unknown-id-400)',
    method: 'PUT',
    path: '/api/articles/{{article}}',
    body: { data: { gallery: ['{{i1}}', 999999] } },
    status: 400,
    match: {
      error: {
        status: 400,
        name: 'ValidationError',
        message: '1 relation(s) of type plugin::upload.file associated with this entity do not exist',
      },
    },
  },
  {
    name: 'the refused writes changed nothing',
    path: `/api/articles/{{article}}?${MEDIA_NAMES}`,
    status: 200,
    check: (r, { vars }) => expect(r.json.data.cover.id).toBe(vars.c2),
  },
  {
    name: 'an image as cover, a text file and a JPEG in the gallery (images and files allowed)',
    method: 'PUT',
    path: `/api/articles/{{article}}?${MEDIA_NAMES}`,
    body: { data: { cover: '{{i1}}', gallery: ['{{t1}}', '{{i2}}'] } },
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{article}}',
      title: 'Linked',
      cover: named('i1', 'i1.png'),
      gallery: [named('t1', 't1.txt'), named('i2', 'i2.jpg')],
    }),
  },
  {
    name: "populated media: Strapi's file shape with formats, no isUrlSigned (populate-star-media)",
    path: '/api/articles/{{article}}?fields[0]=title&populate[0]=cover&populate[1]=gallery',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{article}}',
      title: 'Linked',
      cover: populatedFile({ id: '{{i1}}', name: 'i1.png', slug: 'i1', alternativeText: 'one', ...PNG64 }),
      gallery: [
        populatedFile({ id: '{{t1}}', name: 't1.txt', slug: 't1', ...TEXT }),
        populatedFile({
          id: '{{i2}}',
          name: 'i2.jpg',
          slug: 'i2',
          ext: '.jpg',
          mime: 'image/jpeg',
          width: 320,
          height: 240,
          formats: { thumbnail: [208, 156] },
        }),
      ],
    }),
    check: (r) => {
      for (const file of [r.json.data.cover, ...r.json.data.gallery])
        expect(Object.keys(file)).not.toContain('isUrlSigned');
    },
  },
  {
    name: 'populate with fields (populate-media-fields)',
    path: '/api/articles/{{article}}?fields[0]=title&populate[cover][fields][0]=url&populate[cover][fields][1]=alternativeText',
    status: 200,
    equal: single({
      id: ID,
      documentId: '{{article}}',
      title: 'Linked',
      cover: {
        id: '{{i1}}',
        documentId: DOC,
        url: expect.stringMatching(/^\/uploads\/i1_[0-9a-f]{10}\.png$/),
        alternativeText: 'one',
      },
    }),
  },
  {
    name: 'populate=* includes both media attributes',
    path: '/api/articles/{{article}}?fields[0]=title&populate=*',
    status: 200,
    check: (r, { vars }) => {
      expect(r.json.data.cover).toMatchObject({ id: vars.i1, name: 'i1.png' });
      expect(r.json.data.gallery.map((file: { id: number }) => file.id)).toEqual([vars.t1, vars.i2]);
    },
  },
  {
    name: 'filters[cover][name][$eq]',
    path: '/api/articles?filters[cover][name][$eq]=i1.png&fields[0]=title',
    status: 200,
    check: (r) => expect(r.json.data.map((a: { title: string }) => a.title)).toEqual(['Linked']),
  },
  {
    name: 'a cover filter matching nothing',
    path: '/api/articles?filters[cover][name][$eq]=c2.png&fields[0]=title',
    status: 200,
    check: (r) => expect(r.json.data).toEqual([]),
  },
  {
    name: "filters through the gallery's mime (filter-by-media-field)",
    path: '/api/articles?filters[gallery][mime][$eq]=text/plain&fields[0]=title',
    status: 200,
    check: (r) => expect(r.json.data.map((a: { title: string }) => a.title)).toEqual(['Linked']),
  },
  {
    name: 'filters through media with $and',
    path: '/api/articles?filters[$and][0][cover][width][$eq]=64&filters[$and][1][gallery][name][$startsWith]=i2&fields[0]=title',
    status: 200,
    check: (r) => expect(r.json.data.map((a: { title: string }) => a.title)).toEqual(['Linked']),
  },
  {
    name: 'the media block article is not matched',
    path: '/api/articles?filters[cover][name][$null]=false&fields[0]=title&sort=title',
    status: 200,
    check: (r) => expect(r.json.data.map((a: { title: string }) => a.title)).toEqual(['Linked']),
  },
]);
