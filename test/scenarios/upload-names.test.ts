import { expect } from 'vitest';
import { scenario, type Step } from '../support/scenario.js';
import { formatShape, hashOf, NOTES, testImages, uploadStep, urlOf } from '../support/uploads.js';

// `name`, `hash` and `ext` of uploaded files as Strapi 5.54 derives them (upload plugin
// services/upload.ts formatFileInfo, image-manipulation.ts generateFileName; each row below
// observed on Strapi 5.54.0): ext is the uploaded file's own extension with its case, or the
// usual one of its type when it has none; the hash slugs the used name's base name without that
// ext (@sindresorhus/slugify: words split at case changes, letters transliterated, `&` → and);
// derived formats keep the ext; the file is served with the type of its extension, any case.

const images = await testImages();
const png = { content: images.png64, contentType: 'image/png' };
const text = { content: NOTES, contentType: 'text/plain' };

/** [what, the file sent, fileInfo name, expected name, hash slug, ext, mime]. */
const NAMES: readonly (readonly [
  string,
  { filename: string; content: Buffer; contentType: string },
  string | undefined,
  string,
  string,
  string,
  string,
])[] = [
  ['an upper-case extension', { filename: 'Photo.PNG', ...png }, undefined, 'Photo.PNG', 'Photo', '.PNG', 'image/png'],
  [
    'a mixed-case extension, a camel-case name',
    { filename: 'CamelCaseName.Png', ...png },
    undefined,
    'CamelCaseName.Png',
    'Camel_Case_Name',
    '.Png',
    'image/png',
  ],
  [
    'a JPEG with a space and .JPG',
    { filename: 'My Photo.JPG', content: images.jpeg320, contentType: 'image/jpeg' },
    undefined,
    'My Photo.JPG',
    'My_Photo',
    '.JPG',
    'image/jpeg',
  ],
  [
    'capitals then a word',
    { filename: 'ABCDef_ghi-JKL 12.txt', ...text },
    undefined,
    'ABCDef_ghi-JKL 12.txt',
    'ABC_Def_ghi_JKL_12',
    '.txt',
    'text/plain',
  ],
  [
    'accents and an ampersand',
    { filename: 'Ünïcödé & Friends.txt', ...text },
    undefined,
    'Ünïcödé & Friends.txt',
    'Uenicoede_and_Friends',
    '.txt',
    'text/plain',
  ],
  ['dots in the name', { filename: 'a.b.c.txt', ...text }, undefined, 'a.b.c.txt', 'a_b_c', '.txt', 'text/plain'],
  ["no extension: the type's", { filename: 'noext', ...png }, undefined, 'noext', 'noext', '.png', 'image/png'],
  [
    'no extension, octet-stream: the type the bytes show',
    { filename: 'noext2', content: images.png64, contentType: 'application/octet-stream' },
    undefined,
    'noext2',
    'noext2',
    '.png',
    'image/png',
  ],
  [
    "a dotfile name: text/plain's extension",
    { filename: '.hidden', ...text },
    undefined,
    '.hidden',
    'hidden',
    '.txt',
    'text/plain',
  ],
  [
    'a trailing dot: kept as the extension',
    { filename: 'trailing.', ...text },
    undefined,
    'trailing.',
    'trailing',
    '.',
    'text/plain',
  ],
  [
    "a fileInfo name with an upper-case extension: ext from the file, the name's extension slugged",
    { filename: 'x.png', ...png },
    'Renamed.PNG',
    'Renamed.PNG',
    'Renamed_PNG',
    '.png',
    'image/png',
  ],
  [
    'a file with an upper-case extension renamed in lower case',
    { filename: 'x.PNG', ...png },
    'renamed.png',
    'renamed.png',
    'renamed_png',
    '.PNG',
    'image/png',
  ],
  [
    "a fileInfo name ending with the file's extension",
    { filename: 'x.PNG', ...png },
    'Cover Image.PNG',
    'Cover Image.PNG',
    'Cover_Image',
    '.PNG',
    'image/png',
  ],
];

const nameSteps: Step[] = NAMES.flatMap(([what, file, infoName, name, slug, ext, mime]) => [
  uploadStep(
    `${what}: ${file.filename}${infoName ? ` as ${infoName}` : ''} → hash ${slug}_…, ext ${ext}`,
    { files: [file], ...(infoName ? { fileInfo: { name: infoName } } : {}) },
    {
      status: 201,
      match: [{ name, hash: hashOf(slug), ext, mime, url: urlOf(slug, ext) }],
      save: { [`url_${slug}`]: '0.url' },
    },
  ),
  // A lone dot names no type: served as application/octet-stream.
  {
    name: `… and ${slug}_…${ext} is served as its type`,
    path: `{{url_${slug}}}`,
    status: 200,
    check: (r) =>
      expect(String(r.headers['content-type']).split(';')[0]).toBe(ext === '.' ? 'application/octet-stream' : mime),
  },
]);

scenario('upload names: name, hash and ext as Strapi 5.54 keeps them, upper-case extensions included', [
  ...nameSteps,
  uploadStep(
    'a 600×400 PNG named Big.PNG: its formats keep .PNG',
    { files: [{ filename: 'Big.PNG', content: images.png600, contentType: 'image/png' }] },
    {
      status: 201,
      match: [
        {
          name: 'Big.PNG',
          hash: hashOf('Big'),
          ext: '.PNG',
          formats: {
            thumbnail: formatShape(
              'thumbnail',
              { name: 'Big.PNG', slug: 'Big', ext: '.PNG', mime: 'image/png' },
              234,
              156,
            ),
            small: formatShape('small', { name: 'Big.PNG', slug: 'Big', ext: '.PNG', mime: 'image/png' }, 500, 333),
          },
        },
      ],
      save: { thumbnail: '0.formats.thumbnail.url' },
    },
  ),
  {
    name: 'its thumbnail is served as image/png',
    path: '{{thumbnail}}',
    status: 200,
    check: (r) => expect(r.headers['content-type']).toBe('image/png'),
  },
]);
