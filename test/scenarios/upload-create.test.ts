import { expect } from 'vitest';
import { field, multipart, uploadBody } from '../support/multipart.js';
import { dbStep, errorBody, scenario, type Step, type Vars } from '../support/scenario.js';
import { TS } from '../support/shapes.js';
import {
  expectEvents,
  expectStored,
  expectUploadCounts,
  FILE_KEYS,
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

// POST /api/upload: Strapi's file objects (conformance 16-media), image formats per size with
// Strapi's names and hashes, the objects stored under public/uploads and served at /uploads/…,
// fileInfo in every form, the 400s, and media.create on the event bus. Images are generated
// with sharp; the expected shapes follow the behaviour reference §10 and the recorded answers of
// conformance/expected/public/16-media.json.

const images = await testImages();
const png = (filename: string, content: Buffer = images.png64) => ({ filename, content, contentType: 'image/png' });
const jpeg = (filename: string, content: Buffer) => ({ filename, content, contentType: 'image/jpeg' });
const text = (filename: string, content: Buffer = NOTES) => ({ filename, content, contentType: 'text/plain' });

/** The answer's files really are stored and served (see expectStored). */
const stored: Step['check'] = async (response, { server }) => {
  for (const file of response.json) await expectStored(server, file);
};
/** A file answer as an event carries it: without `isUrlSigned`. */
const unsigned = (file: unknown) => {
  const { isUrlSigned: _, ...rest } = file as Record<string, unknown>;
  return rest;
};
const created =
  (...names: string[]) =>
  (vars: Vars) =>
    names.map((name) => ({ event: 'media.create', createdAt: TS, media: unsigned(vars[name]) }));

const TEXT = { ext: '.txt', mime: 'text/plain', size: 0.04 } as const;

scenario('POST /api/upload: file objects, image formats, objects stored and served, fileInfo, refused bodies', [
  recordEvents(),
  {
    name: 'no file yet: GET /api/upload/files is an empty array (list-files-empty)',
    path: '/api/upload/files',
    status: 200,
    equal: [],
  },
  saveUploadCounts('counts before', 'base'),
  uploadStep(
    'a 1200×800 PNG with fileInfo: 201, thumbnail 234×156 and large/medium/small 1000/750/500 (upload-large-png)',
    {
      files: [png('wide.png', images.png1200)],
      fileInfo: { alternativeText: 'wide image', caption: 'all four formats' },
    },
    {
      status: 201,
      equal: [
        uploadedFile({
          name: 'wide.png',
          slug: 'wide',
          ext: '.png',
          mime: 'image/png',
          width: 1200,
          height: 800,
          formats: FORMATS_1200,
          alternativeText: 'wide image',
          caption: 'all four formats',
        }),
      ],
      save: { wide: '0' },
      check: async (r, context) => {
        expect(Object.keys(r.json[0])).toEqual(FILE_KEYS);
        const { hash, formats } = r.json[0] as { hash: string; formats: Record<string, { hash: string }> };
        for (const [key, format] of Object.entries(formats))
          expect(format.hash, 'a format shares the random suffix of its original').toBe(`${key}_${hash}`);
        await stored(r, context);
      },
    },
  ),
  expectEvents('media.create carries the file as the API shows it, without isUrlSigned', created('wide')),
  uploadStep(
    'a 600×400 PNG: thumbnail and small only (upload-png-600)',
    { files: [png('cover.png', images.png600)] },
    {
      status: 201,
      equal: [
        uploadedFile({
          name: 'cover.png',
          slug: 'cover',
          ext: '.png',
          mime: 'image/png',
          width: 600,
          height: 400,
          formats: FORMATS_600,
        }),
      ],
      save: { cover: '0' },
      check: stored,
    },
  ),
  uploadStep(
    'a 320×240 JPEG: a 208×156 thumbnail only (upload-jpeg)',
    { files: [jpeg('photo.jpg', images.jpeg320)] },
    {
      status: 201,
      equal: [
        uploadedFile({
          name: 'photo.jpg',
          slug: 'photo',
          ext: '.jpg',
          mime: 'image/jpeg',
          width: 320,
          height: 240,
          formats: { thumbnail: [208, 156] },
        }),
      ],
      save: { photo: '0', photoUrl: '0.url' },
      check: stored,
    },
  ),
  uploadStep(
    'a 1200×800 JPEG named with a dash: hash slug wide_photo, all four formats in .jpeg',
    { files: [jpeg('wide-photo.jpeg', images.jpeg1200)] },
    {
      status: 201,
      equal: [
        uploadedFile({
          name: 'wide-photo.jpeg',
          slug: 'wide_photo',
          ext: '.jpeg',
          mime: 'image/jpeg',
          width: 1200,
          height: 800,
          formats: FORMATS_1200,
        }),
      ],
      save: { widePhoto: '0' },
      check: stored,
    },
  ),
  uploadStep(
    'a 750×500 PNG: no medium format, as 750 is not smaller than a side',
    { files: [png('edge.png', images.png750)] },
    {
      status: 201,
      equal: [
        uploadedFile({
          name: 'edge.png',
          slug: 'edge',
          ext: '.png',
          mime: 'image/png',
          width: 750,
          height: 500,
          formats: { thumbnail: [234, 156], small: [500, 333] },
        }),
      ],
      save: { edge: '0' },
      check: stored,
    },
  ),
  uploadStep(
    'a 400×800 portrait PNG: formats chosen and fitted by the height',
    { files: [png('portrait.png', images.portrait)] },
    {
      status: 201,
      equal: [
        uploadedFile({
          name: 'portrait.png',
          slug: 'portrait',
          ext: '.png',
          mime: 'image/png',
          width: 400,
          height: 800,
          formats: { thumbnail: [78, 156], medium: [375, 750], small: [250, 500] },
        }),
      ],
      save: { portrait: '0' },
      check: stored,
    },
  ),
  uploadStep(
    'two files in one request, in order: a 64×64 PNG (no formats) and a text file (null width, height, formats) (upload-two-files)',
    {
      files: [png('g1.png'), text('notes-a.txt')],
    },
    {
      status: 201,
      equal: [
        uploadedFile({
          name: 'g1.png',
          slug: 'g1',
          ext: '.png',
          mime: 'image/png',
          width: 64,
          height: 64,
          formats: null,
        }),
        uploadedFile({ name: 'notes-a.txt', slug: 'notes_a', ...TEXT }),
      ],
      save: { g1: '0', notes: '1', notesUrl: '1.url' },
      check: stored,
    },
  ),
  expectEvents(
    'one media.create per file, in upload order',
    created('cover', 'photo', 'widePhoto', 'edge', 'portrait', 'g1', 'notes'),
  ),
  expectUploadCounts('eight rows; 5 + 3 + 2 + 5 + 3 + 4 + 1 + 1 stored objects; the temp folder is empty', 'base', {
    files: 8,
    objects: 24,
  }),
  dbStep('public/uploads holds exactly the objects the answers name', ({ vars, server }) => {
    const files = ['wide', 'cover', 'photo', 'widePhoto', 'edge', 'portrait', 'g1', 'notes'].map(
      (name) => vars[name] as Parameters<typeof objectNames>[0],
    );
    expect(storedNames(server)).toEqual(files.flatMap(objectNames).sort());
  }),
  {
    name: 'a text file is stored and served byte for byte',
    path: '{{notesUrl}}',
    status: 200,
    check: (r) => {
      expect(r.bytes.equals(NOTES)).toBe(true);
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    },
  },
  {
    name: 'a JPEG is served as image/jpeg',
    path: '{{photoUrl}}',
    status: 200,
    check: (r) => expect(r.headers['content-type']).toBe('image/jpeg'),
  },
  {
    name: 'an unknown object under /uploads: 404 envelope',
    path: '/uploads/nothing_0123456789.png',
    status: 404,
    equal: errorBody(404, 'NotFoundError', 'Not Found', {}),
  },
  { name: 'the temp folder is never served', path: '/uploads/.tmp/', status: 404 },
  { name: 'nor anything above public/', path: '/uploads/..%2f..%2fconfig%2fplugins.js', status: 404 },
  {
    name: 'GET /api/upload/files lists the eight',
    path: '/api/upload/files?fields[0]=name&sort=name',
    status: 200,
    check: (r) =>
      expect(r.json.map((f: { name: string }) => f.name)).toEqual([
        'cover.png',
        'edge.png',
        'g1.png',
        'notes-a.txt',
        'photo.jpg',
        'portrait.png',
        'wide-photo.jpeg',
        'wide.png',
      ]),
  },

  // fileInfo: object, array, one field per file, unknown keys; then the refused bodies.
  saveUploadCounts('counts before the fileInfo cases', 'info'),
  uploadStep(
    'fileInfo as a one-element array for a single file (upload-single-fileInfo-in-array)',
    {
      files: [text('plain.txt')],
      fileInfo: [{ alternativeText: 'single in array', caption: 'a text file', name: 'renamed-notes.txt' }],
    },
    {
      status: 201,
      equal: [
        uploadedFile({
          name: 'renamed-notes.txt',
          slug: 'renamed_notes',
          alternativeText: 'single in array',
          caption: 'a text file',
          ...TEXT,
        }),
      ],
    },
  ),
  uploadStep(
    'an array maps to the files in order',
    {
      files: [text('one.txt'), png('two.png')],
      fileInfo: [{ name: 'first.txt' }, { caption: 'second' }],
    },
    {
      status: 201,
      equal: [
        uploadedFile({ name: 'first.txt', slug: 'first', ...TEXT }),
        uploadedFile({
          name: 'two.png',
          slug: 'two',
          ext: '.png',
          mime: 'image/png',
          width: 64,
          height: 64,
          caption: 'second',
        }),
      ],
    },
  ),
  uploadStep(
    'an unknown key is accepted and ignored (upload-fileInfo-unknown-key-accepted)',
    { files: [text('notes.txt')], fileInfo: { bogus: 1, focalPoint: { x: 1, y: 2 } } },
    {
      status: 201,
      equal: [uploadedFile({ name: 'notes.txt', slug: 'notes', ...TEXT })],
    },
  ),
  uploadStep(
    'null values are kept as null',
    { files: [text('nulls.txt')], fileInfo: { name: null, alternativeText: null, caption: null } },
    {
      status: 201,
      equal: [uploadedFile({ name: 'nulls.txt', slug: 'nulls', ...TEXT })],
    },
  ),
  {
    name: 'one fileInfo field per file (as FormData.append per file): each applies to its file',
    method: 'POST',
    path: '/api/upload',
    payload: uploadBody({
      files: [text('a.txt'), text('b.txt')],
      extra: [field('fileInfo', '{"name":"x.txt"}'), field('fileInfo', '{"caption":"for b"}')],
    }),
    status: 201,
    equal: [
      uploadedFile({ name: 'x.txt', slug: 'x', ...TEXT }),
      uploadedFile({ name: 'b.txt', slug: 'b', caption: 'for b', ...TEXT }),
    ],
  },
  expectEvents('one media.create per file', () =>
    Array.from({ length: 7 }, () => expect.objectContaining({ event: 'media.create' })),
  ),
  expectUploadCounts('seven files, seven objects', 'info', { files: 7, objects: 7 }),
  saveUploadCounts('counts before the refused bodies', 'refused'),
  // Cairn's wording where Strapi's was not recorded; the paths and values as yup reports them.
  uploadStep(
    'fileInfo that is not JSON',
    { files: [text('a.txt')], fileInfo: 'not json' },
    {
      status: 400,
      equal: errorBody(
        400,
        'ValidationError',
        'fileInfo must be a JSON object (or an array of objects, one per file)',
        {},
      ),
    },
  ),
  uploadStep(
    'fileInfo that is a JSON string',
    { files: [text('a.txt')], fileInfo: '"a string"' },
    {
      status: 400,
      equal: errorBody(400, 'ValidationError', 'fileInfo must be a `object` type', {
        errors: [
          {
            path: ['fileInfo'],
            message: 'fileInfo must be a `object` type',
            name: 'ValidationError',
            value: 'a string',
          },
        ],
      }),
    },
  ),
  uploadStep(
    'an array entry that is not an object',
    { files: [text('a.txt'), text('b.txt')], fileInfo: [{}, 7] },
    {
      status: 400,
      equal: errorBody(400, 'ValidationError', 'fileInfo.1 must be a `object` type', {
        errors: [
          { path: ['fileInfo', '1'], message: 'fileInfo.1 must be a `object` type', name: 'ValidationError', value: 7 },
        ],
      }),
    },
  ),
  uploadStep(
    'a name that is an object',
    { files: [text('a.txt')], fileInfo: { name: { a: 1 } } },
    {
      status: 400,
      equal: errorBody(
        400,
        'ValidationError',
        'fileInfo.name must be a `string` type, but the final value was: `{"a":1}`.',
        {
          errors: [
            {
              path: ['fileInfo', 'name'],
              message: 'fileInfo.name must be a `string` type, but the final value was: `{"a":1}`.',
              name: 'ValidationError',
              value: { a: 1 },
            },
          ],
        },
      ),
    },
  ),
  uploadStep(
    'a caption that is an array, in the second entry',
    { files: [text('a.txt'), text('b.txt')], fileInfo: [{}, { caption: ['x'] }] },
    {
      status: 400,
      match: {
        error: {
          status: 400,
          name: 'ValidationError',
          details: { errors: [{ path: ['fileInfo', '1', 'caption'], value: ['x'] }] },
        },
      },
    },
  ),
  uploadStep(
    'no file, only fileInfo (upload-no-files-400)',
    { fileInfo: {} },
    { status: 400, equal: errorBody(400, 'ValidationError', 'Files are empty', {}) },
  ),
  uploadStep(
    'files under another field name (upload-wrong-field-name-400)',
    { files: [{ ...text('a.txt'), name: 'file' }] },
    { status: 400, equal: errorBody(400, 'ValidationError', 'Files are empty', {}) },
  ),
  {
    name: 'an empty multipart body',
    method: 'POST',
    path: '/api/upload',
    payload: multipart([]),
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Files are empty', {}),
  },
  {
    name: 'a JSON body',
    method: 'POST',
    path: '/api/upload',
    body: { files: [] },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Files are empty', {}),
  },
  expectUploadCounts('the refused bodies stored nothing, left no temp file', 'refused'),
  expectEvents('and emitted nothing', () => []),
]);
