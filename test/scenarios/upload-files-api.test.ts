import { expect } from 'vitest';
import { dbStep, errorBody, scenario, type Vars } from '../support/scenario.js';
import { DOC, ID, TS } from '../support/shapes.js';
import {
  expectEvents,
  expectStored,
  expectUploadCounts,
  FORMATS_1200,
  FORMATS_600,
  NOTES,
  objectNames,
  recordEvents,
  saveUploadCounts,
  storedNames,
  testImages,
  uploadedFile,
  uploadStep,
} from '../support/uploads.js';

// The files API after an upload: GET /api/upload/files (filters, sort, fields: a plain array),
// its paging (files-paging.test.ts), GET /api/upload/files/:id, POST /api/upload?id= (info update without a file, replace
// with one), DELETE /api/upload/files/:id, with the media.update / media.delete events. Shapes and
// messages as Strapi's (behaviour reference §10, conformance 16-media); Strapi's replace and info
// update answer an unknown id with NotFoundError's default message, `Entity not found`.

const images = await testImages();
const png = (filename: string, content: Buffer) => ({ filename, content, contentType: 'image/png' });
const TEXT = { ext: '.txt', mime: 'text/plain', size: 0.04 } as const;
const names = (response: { json: { name: string }[] }) => response.json.map((file) => file.name);
/** Remembers a whole JSON answer as `vars[name]`. */
const keep = (name: string, response: { json: unknown }, { vars }: { vars: Vars }) => {
  vars[name] = response.json;
};
const unsigned = (file: unknown) => {
  const { isUrlSigned: _, ...rest } = file as Record<string, unknown>;
  return rest;
};
const event = (name: 'media.update' | 'media.delete', key: string) => (vars: Vars) => ({
  event: name,
  createdAt: TS,
  media: unsigned(vars[key]),
});
const notFound = errorBody(404, 'NotFoundError', 'file.notFound', {});
const entityNotFound = errorBody(404, 'NotFoundError', 'Entity not found', {});
const ARTICLE_MEDIA =
  '/api/articles/{{article}}?fields[0]=title&populate[cover][fields][0]=url&populate[gallery][fields][0]=name';

scenario('the files API: list, find one, info update, replace, delete, with their events', [
  uploadStep(
    'seed b-cover.png (600×400)',
    { files: [png('b-cover.png', images.png600)] },
    { status: 201, save: { cover: '0', coverId: '0.id', coverDoc: '0.documentId' } },
  ),
  uploadStep(
    'seed a-notes.txt',
    { files: [{ filename: 'a-notes.txt', content: NOTES, contentType: 'text/plain' }] },
    { status: 201, save: { notes: '0', notesId: '0.id' } },
  ),
  uploadStep(
    'seed c-photo.jpg (320×240)',
    { files: [{ filename: 'c-photo.jpg', content: images.jpeg320, contentType: 'image/jpeg' }] },
    { status: 201, save: { photoId: '0.id' } },
  ),
  uploadStep(
    'seed d-tiny.png (64×64)',
    { files: [png('d-tiny.png', images.png64)] },
    { status: 201, save: { tiny: '0', tinyId: '0.id' } },
  ),
  {
    name: 'an article uses the cover, the tiny PNG and the text file',
    method: 'POST',
    path: `/api/articles?fields[0]=title`,
    body: { data: { title: 'With media', cover: '{{coverId}}', gallery: ['{{tinyId}}', '{{notesId}}'] } },
    status: 201,
    save: { article: 'data.documentId' },
  },
  recordEvents(),

  // GET /api/upload/files
  {
    name: 'without a query: every file, a plain array, each with isUrlSigned: false',
    path: '/api/upload/files',
    status: 200,
    check: (r) => {
      expect(names(r).sort()).toEqual(['a-notes.txt', 'b-cover.png', 'c-photo.jpg', 'd-tiny.png']);
      for (const file of r.json) expect(file.isUrlSigned).toBe(false);
    },
  },
  {
    name: 'sort=name',
    path: '/api/upload/files?sort=name',
    status: 200,
    check: (r) => expect(names(r)).toEqual(['a-notes.txt', 'b-cover.png', 'c-photo.jpg', 'd-tiny.png']),
  },
  {
    name: 'sort=name:desc',
    path: '/api/upload/files?sort=name:desc',
    status: 200,
    check: (r) => expect(names(r)).toEqual(['d-tiny.png', 'c-photo.jpg', 'b-cover.png', 'a-notes.txt']),
  },
  {
    name: 'sort on two keys',
    path: '/api/upload/files?sort[0]=mime:desc&sort[1]=name:desc&filters[width][$notNull]=true',
    status: 200,
    check: (r) => expect(names(r)).toEqual(['d-tiny.png', 'b-cover.png', 'c-photo.jpg']),
  },
  {
    name: 'filters and fields: the images by name, id/documentId/name and isUrlSigned (list-files-filter)',
    path: '/api/upload/files?filters[mime][$startsWith]=image/&sort=name&fields[0]=name',
    status: 200,
    equal: ['b-cover.png', 'c-photo.jpg', 'd-tiny.png'].map((name) => ({
      id: ID,
      documentId: DOC,
      name,
      isUrlSigned: false,
    })),
  },
  {
    name: 'filters[ext][$eq]=.txt: the full file (list-files-filter-ext)',
    path: '/api/upload/files?filters[ext][$eq]=.txt',
    status: 200,
    equal: [uploadedFile({ name: 'a-notes.txt', slug: 'a_notes', ...TEXT })],
  },
  {
    name: 'filters[$or]',
    path: '/api/upload/files?filters[$or][0][name][$eq]=a-notes.txt&filters[$or][1][width][$gt]=500&sort=name',
    status: 200,
    check: (r) => expect(names(r)).toEqual(['a-notes.txt', 'b-cover.png']),
  },
  {
    name: 'filters[width][$null]: the non-images',
    path: '/api/upload/files?filters[width][$null]=true',
    status: 200,
    check: (r) => expect(names(r)).toEqual(['a-notes.txt']),
  },
  {
    name: 'filters[name][$containsi]',
    path: '/api/upload/files?filters[name][$containsi]=PHOTO',
    status: 200,
    check: (r) => expect(names(r)).toEqual(['c-photo.jpg']),
  },
  {
    name: 'fields[0]=name&fields[1]=mime, with the top-level start and limit (which the list honours)',
    path: '/api/upload/files?fields[0]=name&fields[1]=mime&sort=name&limit=1',
    status: 200,
    equal: [{ id: ID, documentId: DOC, name: 'a-notes.txt', mime: 'text/plain', isUrlSigned: false }],
  },
  {
    name: 'an unknown filter key: 400',
    path: '/api/upload/files?filters[nope][$eq]=x',
    status: 400,
    match: { error: { status: 400, name: 'ValidationError', message: 'Invalid key nope' } },
  },
  {
    name: 'an unknown sort key: 400',
    path: '/api/upload/files?sort=nope',
    status: 400,
    match: { error: { status: 400, name: 'ValidationError', message: 'Invalid key nope' } },
  },

  // GET /api/upload/files/:id
  {
    name: 'find one: the plain file object (get-file)',
    path: '/api/upload/files/{{coverId}}',
    status: 200,
    equal: uploadedFile({
      id: '{{coverId}}',
      documentId: '{{coverDoc}}',
      name: 'b-cover.png',
      slug: 'b_cover',
      ext: '.png',
      mime: 'image/png',
      width: 600,
      height: 400,
      formats: FORMATS_600,
    }),
  },
  {
    name: 'find one ignores fields',
    path: '/api/upload/files/{{coverId}}?fields[0]=name',
    status: 200,
    equal: '{{cover}}',
  },
  {
    name: 'an unknown id: 404 file.notFound (get-file-unknown-404)',
    path: '/api/upload/files/999999',
    status: 404,
    equal: notFound,
  },
  { name: 'a non-numeric id: 404 file.notFound', path: '/api/upload/files/abc', status: 404, equal: notFound },
  expectEvents('reads emit nothing', () => []),

  // POST /api/upload?id= without a file: the file's info
  saveUploadCounts('counts before the info updates', 'info'),
  uploadStep(
    'info update (multipart fileInfo): name, alternative text and caption; hash and url kept',
    { fileInfo: { name: 'renamed.txt', alternativeText: 'alt', caption: 'cap' } },
    {
      path: '/api/upload?id={{notesId}}',
      status: 200,
      equal: uploadedFile({
        id: '{{notesId}}',
        name: 'renamed.txt',
        slug: 'a_notes',
        alternativeText: 'alt',
        caption: 'cap',
        ...TEXT,
      }),
      check: (r, context) => {
        keep('info1', r, context);
        const before = context.vars.notes as { hash: string; url: string; createdAt: string; updatedAt: string };
        expect(r.json).toMatchObject({ hash: before.hash, url: before.url, createdAt: before.createdAt });
        expect(Date.parse(r.json.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
      },
    },
  ),
  {
    name: 'info update with a JSON body',
    method: 'POST',
    path: '/api/upload?id={{notesId}}',
    body: { fileInfo: { caption: 'json caption' } },
    status: 200,
    check: (r, context) => {
      expect(r.json).toMatchObject({
        name: 'renamed.txt',
        alternativeText: 'alt',
        caption: 'json caption',
        isUrlSigned: false,
      });
      keep('info2', r, context);
    },
  },
  uploadStep(
    "null values keep the stored ones (Strapi's updateFileInfo: _.isNil → the current value)",
    { fileInfo: { name: null, alternativeText: null, caption: null } },
    {
      path: '/api/upload?id={{notesId}}',
      status: 200,
      check: (r, context) => {
        expect(r.json).toMatchObject({ name: 'renamed.txt', alternativeText: 'alt', caption: 'json caption' });
        keep('info3', r, context);
      },
    },
  ),
  expectEvents('one media.update per info update, with the updated file', (vars) => [
    event('media.update', 'info1')(vars),
    event('media.update', 'info2')(vars),
    event('media.update', 'info3')(vars),
  ]),
  uploadStep(
    'an unknown id: 404 Entity not found',
    { fileInfo: { caption: 'x' } },
    { path: '/api/upload?id=999999', status: 404, equal: entityNotFound },
  ),
  uploadStep(
    'a non-numeric id: 404 Entity not found',
    { fileInfo: { caption: 'x' } },
    { path: '/api/upload?id=abc', status: 404, equal: entityNotFound },
  ),
  uploadStep(
    'two ids: 400',
    { fileInfo: { caption: 'x' } },
    {
      path: '/api/upload?id[0]={{notesId}}&id[1]={{coverId}}',
      status: 400,
      equal: errorBody(400, 'ValidationError', 'File id is required and must be a single value', {}),
    },
  ),
  uploadStep(
    'a bad fileInfo: 400',
    { fileInfo: { caption: { x: 1 } } },
    {
      path: '/api/upload?id={{notesId}}',
      status: 400,
      match: {
        error: { status: 400, name: 'ValidationError', details: { errors: [{ path: ['fileInfo', 'caption'] }] } },
      },
    },
  ),
  { name: 'the file kept its info', path: '/api/upload/files/{{notesId}}', status: 200, equal: '{{info3}}' },
  expectUploadCounts('info updates touch no stored object', 'info'),
  expectEvents('failed updates emit nothing', () => []),

  // POST /api/upload?id= with a file: replace
  saveUploadCounts('counts before the replace', 'replace'),
  uploadStep(
    'replace the 600×400 PNG with a 1200×800 JPEG: same id, documentId and createdAt; new name, type, formats and objects',
    {
      files: [{ filename: 'new-cover.jpg', content: images.jpeg1200, contentType: 'image/jpeg' }],
      fileInfo: { alternativeText: 'replaced' },
    },
    {
      path: '/api/upload?id={{coverId}}',
      status: 200,
      equal: uploadedFile({
        id: '{{coverId}}',
        documentId: '{{coverDoc}}',
        name: 'new-cover.jpg',
        slug: 'new_cover',
        ext: '.jpg',
        mime: 'image/jpeg',
        width: 1200,
        height: 800,
        formats: FORMATS_1200,
        alternativeText: 'replaced',
      }),
      check: async (r, context) => {
        keep('replaced', r, context);
        context.vars.replacedUrl = r.json.url;
        expect(r.json.createdAt).toBe((context.vars.cover as { createdAt: string }).createdAt);
        await expectStored(context.server, r.json);
      },
    },
  ),
  dbStep('the old objects are deleted from public/uploads, the new ones stored', ({ vars, server }) => {
    const stored = storedNames(server);
    for (const name of objectNames(vars.cover as Parameters<typeof objectNames>[0]))
      expect(stored, name).not.toContain(name);
    for (const name of objectNames(vars.replaced as Parameters<typeof objectNames>[0]))
      expect(stored, name).toContain(name);
  }),
  expectUploadCounts('no new row or link; 3 objects out, 5 in', 'replace', { objects: 2 }),
  {
    name: "the article's cover is the replaced file (links kept)",
    path: ARTICLE_MEDIA,
    status: 200,
    check: (r, { vars }) =>
      expect(r.json.data.cover).toEqual({
        id: vars.coverId,
        documentId: vars.coverDoc,
        url: (vars.replaced as { url: string }).url,
      }),
  },
  expectEvents('one media.update with the new file', (vars) => [event('media.update', 'replaced')(vars)]),
  uploadStep(
    'replace with two files: 400',
    { files: [png('x.png', images.png64), png('y.png', images.png64)] },
    {
      path: '/api/upload?id={{coverId}}',
      status: 400,
      equal: errorBody(400, 'ValidationError', 'Cannot replace a file with multiple ones', {}),
    },
  ),
  uploadStep(
    'replace an unknown file: 404 Entity not found',
    { files: [png('x.png', images.png64)] },
    { path: '/api/upload?id=999999', status: 404, equal: entityNotFound },
  ),
  uploadStep(
    'replace with a denied type (security.deniedTypes of the example): 400',
    {
      files: [
        { filename: 'x.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"/>', contentType: 'image/svg+xml' },
      ],
    },
    {
      path: '/api/upload?id={{coverId}}',
      status: 400,
      match: { error: { status: 400, name: 'ValidationError', message: "File type 'image/svg+xml' is not allowed" } },
    },
  ),
  {
    name: 'the refused replaces changed nothing',
    path: '/api/upload/files/{{coverId}}',
    status: 200,
    equal: '{{replaced}}',
  },
  expectUploadCounts('and stored nothing', 'replace', { objects: 2 }),
  expectEvents('nor emitted anything', () => []),

  // DELETE /api/upload/files/:id
  saveUploadCounts('counts before the delete', 'delete'),
  {
    name: 'delete: 200 with the deleted file (delete-file-full)',
    method: 'DELETE',
    path: '/api/upload/files/{{coverId}}',
    auth: 'full',
    status: 200,
    equal: '{{replaced}}',
  },
  expectUploadCounts('the row, its two links (draft and published) and its five objects are gone', 'delete', {
    files: -1,
    links: -2,
    objects: -5,
  }),
  dbStep('none of its objects is left', ({ vars, server }) => {
    const stored = storedNames(server);
    for (const name of objectNames(vars.replaced as Parameters<typeof objectNames>[0]))
      expect(stored).not.toContain(name);
  }),
  expectEvents('media.delete with the deleted file', (vars) => [event('media.delete', 'replaced')(vars)]),
  { name: 'its url is no longer served', path: '{{replacedUrl}}', status: 404 },
  { name: 'find one: 404 (get-deleted-file-404)', path: '/api/upload/files/{{coverId}}', status: 404, equal: notFound },
  {
    name: 'the article has no cover any more, its gallery is intact',
    path: ARTICLE_MEDIA,
    status: 200,
    check: (r) => {
      expect(r.json.data.cover).toBeNull();
      expect(r.json.data.gallery.map((file: { name: string }) => file.name)).toEqual(['d-tiny.png', 'renamed.txt']);
    },
  },
  {
    name: 'delete it again: 404 file.notFound',
    method: 'DELETE',
    path: '/api/upload/files/{{coverId}}',
    auth: 'full',
    status: 404,
    equal: notFound,
  },
  {
    name: 'delete an unknown id: 404 (delete-unknown-file-404)',
    method: 'DELETE',
    path: '/api/upload/files/999999',
    auth: 'full',
    status: 404,
    equal: notFound,
  },
  {
    name: 'delete a non-numeric id: 404',
    method: 'DELETE',
    path: '/api/upload/files/abc',
    auth: 'full',
    status: 404,
    equal: notFound,
  },
  {
    name: 'delete a gallery file',
    method: 'DELETE',
    path: '/api/upload/files/{{tinyId}}',
    auth: 'full',
    status: 200,
    equal: '{{tiny}}',
  },
  {
    name: 'the gallery no longer shows it (gallery-after-file-delete)',
    path: ARTICLE_MEDIA,
    status: 200,
    check: (r) => expect(r.json.data.gallery.map((file: { name: string }) => file.name)).toEqual(['renamed.txt']),
  },
  {
    name: 'nor does a filter through the gallery find it',
    path: '/api/articles?filters[gallery][name][$eq]=d-tiny.png&fields[0]=title',
    status: 200,
    check: (r) => expect(r.json.data).toEqual([]),
  },
  expectUploadCounts('two rows, four links and six objects fewer than before the deletes', 'delete', {
    files: -2,
    links: -4,
    objects: -6,
  }),
  expectEvents('media.delete for the gallery file', (vars) => [event('media.delete', 'tiny')(vars)]),
  {
    name: 'the rest is listed',
    path: '/api/upload/files?sort=name&fields[0]=name',
    status: 200,
    check: (r) => expect(names(r)).toEqual(['c-photo.jpg', 'renamed.txt']),
  },
]);
