import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startAdminClient, type AdminClient } from './support/admin-client.js';
import { GRAPHQL_SETTINGS } from './support/graphql.js';
import { uploadBody } from './support/multipart.js';
import { linkedPackage, S3_CREDENTIALS, startS3Server, type S3Server } from './support/s3-server.js';
import type { TestResponse } from './support/test-server.js';
import { gradientImage, NOTES } from './support/uploads.js';

/*
 * Strapi's own S3 provider (@strapi/provider-upload-aws-s3, installed in the test project's
 * node_modules) against a real S3-compatible server on loopback, on every database: uploads
 * through /api/upload land in the bucket (the original and its formats), the rows record
 * `provider: 'aws-s3'` and the bucket URLs, the objects download from those URLs, a replace and
 * a delete remove them. With a private bucket (`ACL: 'private'`, the provider's `isPrivate()`),
 * every answer — upload routes, content API, GraphQL, the media library — shows signed URLs that
 * the server accepts (and refuses once tampered with), while the rows keep the plain URL.
 */

const PUBLIC = 'public-media';
const PRIVATE = 'private-media';
const CACHE_CONTROL = 'public, max-age=31536000, immutable';
const PACKAGE = '@strapi/provider-upload-aws-s3';

/** config/plugins.js naming the aws-s3 provider on `bucket` of `endpoint`, with the GraphQL plugin. */
function s3Plugins(endpoint: string, bucket: string, acl: 'public-read' | 'private'): string {
  const config = {
    'users-permissions': { config: { jwtManagement: 'refresh', sessions: { httpOnly: true } } },
    upload: {
      config: {
        provider: 'aws-s3',
        providerOptions: {
          s3Options: {
            endpoint,
            region: 'us-east-1',
            forcePathStyle: true,
            credentials: S3_CREDENTIALS,
            params: { Bucket: bucket, ACL: acl, signedUrlExpires: 600 },
          },
        },
        actionOptions: { uploadStream: { CacheControl: CACHE_CONTROL } },
      },
    },
    graphql: { config: GRAPHQL_SETTINGS },
    i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } },
  };
  return `module.exports = () => (${JSON.stringify(config, null, 2)});\n`;
}

type FileAnswer = {
  id: number;
  name: string;
  hash: string;
  ext: string;
  url: string;
  provider: string;
  isUrlSigned?: boolean;
  formats: Record<string, { hash: string; ext: string; url: string; width: number; isUrlSigned?: boolean }> | null;
};

/** Every object key a file answer names: the original and its formats. */
const keysOf = (file: FileAnswer) =>
  [file, ...Object.values(file.formats ?? {})].map((object) => `${object.hash}${object.ext}`);

/** The URL without its query (a signed URL's stored form). */
const unsigned = (url: string) => url.split('?')[0] ?? url;

async function download(url: string): Promise<{ status: number; bytes: Buffer; cacheControl: string | null }> {
  const response = await fetch(url);
  return {
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
    cacheControl: response.headers.get('cache-control'),
  };
}

async function upload(client: AdminClient, files: { filename: string; content: Buffer; contentType: string }[]) {
  const form = uploadBody({ files });
  const response = await client.server.request('POST', '/api/upload', { ...form, auth: 'full' });
  expect(response.status, response.text).toBe(201);
  return response.json as FileAnswer[];
}

let png: Buffer;
let s3: S3Server;

beforeAll(async () => {
  png = await gradientImage(1200, 800, 'png');
  s3 = await startS3Server([PUBLIC, PRIVATE]);
});
afterAll(async () => {
  await s3?.close();
});

for (const database of inject('databases')) {
  describe(`[${database}] the aws-s3 provider on a public bucket`, { timeout: 60_000 }, () => {
    let client: AdminClient;
    let image: FileAnswer;
    let notes: FileAnswer;

    beforeAll(async () => {
      client = await startAdminClient(database, {
        files: { 'config/plugins.js': s3Plugins(s3.endpoint, PUBLIC, 'public-read'), ...linkedPackage(PACKAGE) },
      });
      [image, notes] = (await upload(client, [
        { filename: 'cover.png', content: png, contentType: 'image/png' },
        { filename: 'notes.txt', content: NOTES, contentType: 'text/plain' },
      ])) as [FileAnswer, FileAnswer];
    });
    afterAll(async () => {
      await client?.server.close();
    });

    it('stores the original and its formats in the bucket, recording aws-s3 and the bucket URLs', async () => {
      expect(Object.keys(image.formats ?? {}).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
      expect(await s3.keys(PUBLIC)).toEqual([...keysOf(image), ...keysOf(notes)].sort());
      for (const file of [image, notes]) {
        expect(file.provider).toBe('aws-s3');
        expect(file.isUrlSigned).toBe(false);
        for (const object of [file, ...Object.values(file.formats ?? {})])
          expect(object.url).toBe(`${s3.endpoint}/${PUBLIC}/${object.hash}${object.ext}`);
      }
      const rows = await client.rows(`select id, url, provider, formats from files order by id`);
      expect(rows.map((row) => [Number(row.id), row.url, row.provider])).toEqual([
        [image.id, image.url, 'aws-s3'],
        [notes.id, notes.url, 'aws-s3'],
      ]);
      const formats = typeof rows[0]?.formats === 'string' ? JSON.parse(rows[0].formats) : rows[0]?.formats;
      expect(formats.thumbnail.url).toBe(image.formats?.thumbnail?.url);
      expect(existsSync(join(client.server.dir, 'public/uploads')) ? uploadsLeft(client) : []).toEqual([]);
    });

    it('serves the stored bytes from the bucket URLs, with the upload action options applied', async () => {
      const text = await download(notes.url);
      expect(text.status).toBe(200);
      expect(text.bytes.equals(NOTES)).toBe(true);
      expect(text.cacheControl).toBe(CACHE_CONTROL);
      const original = await download(image.url);
      expect((await sharp(original.bytes).metadata()).width).toBe(1200);
      const thumbnail = await download(image.formats?.thumbnail?.url ?? '');
      expect((await sharp(thumbnail.bytes).metadata()).width).toBe(image.formats?.thumbnail?.width);
    });

    it('shows the bucket URLs in content answers (no signing for a public bucket)', async () => {
      const author = await client.server.request('POST', '/api/authors', {
        auth: 'full',
        body: { data: { name: 'Ada', avatar: image.id } },
      });
      expect(author.status, author.text).toBe(201);
      const read = await client.server.request('GET', '/api/authors?populate=avatar', { auth: 'full' });
      expect(read.json.data[0].avatar.url).toBe(image.url);
      expect(read.json.data[0].avatar).not.toHaveProperty('isUrlSigned');
    });

    it('replaces a file: new objects in the bucket, the old ones deleted', async () => {
      const form = uploadBody({
        files: [{ filename: 'notes.txt', content: 'second version\n', contentType: 'text/plain' }],
      });
      const replaced = await client.server.request('POST', `/api/upload?id=${notes.id}`, { ...form, auth: 'full' });
      expect(replaced.status, replaced.text).toBe(200);
      const next = replaced.json as FileAnswer;
      expect(next.id).toBe(notes.id);
      expect((await download(next.url)).bytes.toString()).toBe('second version\n');
      expect(await s3.keys(PUBLIC)).toEqual([...keysOf(image), ...keysOf(next)].sort());
      notes = next;
    });

    it('deletes the objects with the file', async () => {
      for (const file of [image, notes]) {
        const removed = await client.server.request('DELETE', `/api/upload/files/${file.id}`, { auth: 'full' });
        expect(removed.status, removed.text).toBe(200);
      }
      expect(await s3.keys(PUBLIC)).toEqual([]);
      expect((await download(notes.url)).status).toBe(404);
    });
  });

  describe(`[${database}] the aws-s3 provider on a private bucket`, { timeout: 60_000 }, () => {
    let client: AdminClient;
    let image: FileAnswer;
    let notes: FileAnswer;
    const request = (method: string, path: string, body?: unknown): Promise<TestResponse> =>
      client.server.request(method, path, { auth: 'full', ...(body === undefined ? {} : { body }) });

    /** A signed URL of this bucket that the S3 server accepts, for the object `hash+ext`. */
    const expectSigned = (url: string, object: { hash: string; ext: string }) => {
      expect(unsigned(url)).toBe(`${s3.endpoint}/${PRIVATE}/${object.hash}${object.ext}`);
      expect(new URL(url).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('600');
    };
    const expectSignedFile = (file: FileAnswer) => {
      expect(file.isUrlSigned).toBe(true);
      expectSigned(file.url, file);
      for (const format of Object.values(file.formats ?? {})) {
        expectSigned(format.url, format);
        expect(format.isUrlSigned).toBe(true);
      }
    };

    beforeAll(async () => {
      client = await startAdminClient(database, {
        files: { 'config/plugins.js': s3Plugins(s3.endpoint, PRIVATE, 'private'), ...linkedPackage(PACKAGE) },
      });
      [image, notes] = (await upload(client, [
        { filename: 'cover.png', content: png, contentType: 'image/png' },
        { filename: 'notes.txt', content: NOTES, contentType: 'text/plain' },
      ])) as [FileAnswer, FileAnswer];
    });
    afterAll(async () => {
      await client?.server.close();
    });

    it('answers the upload with signed URLs; the rows keep the plain ones', async () => {
      expectSignedFile(image);
      expectSignedFile(notes);
      expect(await s3.keys(PRIVATE)).toEqual([...keysOf(image), ...keysOf(notes)].sort());
      const rows = await client.rows(`select id, url, provider from files order by id`);
      expect(rows.map((row) => [row.url, row.provider])).toEqual([
        [unsigned(image.url), 'aws-s3'],
        [unsigned(notes.url), 'aws-s3'],
      ]);
    });

    it('signed URLs download the objects; a tampered signature is refused', async () => {
      const text = await download(notes.url);
      expect(text.status).toBe(200);
      expect(text.bytes.equals(NOTES)).toBe(true);
      const small = await download(image.formats?.small?.url ?? '');
      expect((await sharp(small.bytes).metadata()).width).toBe(500);
      const tampered = new URL(notes.url);
      tampered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
      expect((await download(tampered.href)).status).toBe(403);
    });

    it('signs the upload plugin routes: list, page, one file', async () => {
      const list = await request('GET', '/api/upload/files?sort=id');
      expect(list.json).toHaveLength(2);
      for (const file of list.json as FileAnswer[]) expectSignedFile(file);
      const page = await request('GET', '/api/upload/files/page');
      for (const file of page.json.data as FileAnswer[]) expectSignedFile(file);
      const one = await request('GET', `/api/upload/files/${image.id}`);
      expectSignedFile(one.json);
      const url = await request('GET', `/api/upload/files?fields[0]=url`);
      for (const file of url.json as FileAnswer[]) expectSigned(file.url, file.id === image.id ? image : notes);
    });

    it('signs media populated in content answers, with every field or a few', async () => {
      const created = await request('POST', '/api/authors?populate=avatar', {
        data: { name: 'Ada', avatar: image.id },
      });
      expect(created.status, created.text).toBe(201);
      expectSignedFile(created.json.data.avatar);
      const list = await request('GET', '/api/authors?populate=avatar');
      expectSignedFile(list.json.data[0].avatar);
      const few = await request('GET', '/api/authors?populate[avatar][fields][0]=url');
      expect(Object.keys(few.json.data[0].avatar).sort()).toEqual(['documentId', 'id', 'isUrlSigned', 'url']);
      expectSigned(few.json.data[0].avatar.url, image);
      const v4 = await client.server.request('GET', '/api/authors?populate=avatar', {
        auth: 'full',
        headers: { 'Strapi-Response-Format': 'v4' },
      });
      expectSigned(v4.json.data[0].attributes.avatar.data.attributes.url, image);
    });

    it('signs media in lists, components of dynamic zones and through relations', async () => {
      const author = (await request('GET', '/api/authors')).json.data[0].documentId;
      const article = await request('POST', '/api/articles', {
        data: {
          title: 'Signed',
          gallery: [image.id, notes.id],
          blocks: [{ __component: 'shared.media-block', file: notes.id }],
          author,
        },
      });
      expect(article.status, article.text).toBe(201);
      const read = await request(
        'GET',
        '/api/articles?populate[gallery]=true&populate[blocks][on][shared.media-block][populate]=file&populate[author][populate]=avatar',
      );
      const [found] = read.json.data;
      expect(found.gallery.map((file: FileAnswer) => file.id)).toEqual([image.id, notes.id]);
      expectSignedFile(found.gallery[0]);
      expectSignedFile(found.gallery[1]);
      expectSignedFile(found.blocks[0].file);
      expectSignedFile(found.author.avatar);
      const counted = await request('GET', '/api/articles?populate[gallery][count]=true');
      expect(counted.json.data[0].gallery).toEqual({ count: 2 });
    });

    it('signs GraphQL answers, aliases included', async () => {
      const answer = await request('POST', '/graphql', {
        query: '{ authors { avatar { url formats } picture: avatar { link: url } } uploadFiles(sort: "id") { url } }',
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json.errors).toBeUndefined();
      const [author] = answer.json.data.authors;
      expectSigned(author.avatar.url, image);
      expectSigned(author.avatar.formats.thumbnail.url, image.formats?.thumbnail ?? image);
      expectSigned(author.picture.link, image);
      expectSigned(answer.json.data.uploadFiles[0].url, image);
      expectSigned(answer.json.data.uploadFiles[1].url, notes);
    });

    it('signs the media library answers', async () => {
      const library = await client.call('GET', '/upload/files?sort=id:ASC');
      expect(library.status, library.text).toBe(200);
      for (const file of library.json.results as FileAnswer[]) expectSignedFile(file);
      const one = await client.call('GET', `/upload/files/${notes.id}`);
      expectSignedFile(one.json);
    });

    it('deletes the objects from the private bucket', async () => {
      for (const file of [image, notes])
        expect((await request('DELETE', `/api/upload/files/${file.id}`)).status).toBe(200);
      expect(await s3.keys(PRIVATE)).toEqual([]);
    });
  });
}

function uploadsLeft(client: AdminClient): string[] {
  return readdirSync(join(client.server.dir, 'public/uploads')).filter((name) => name !== '.tmp');
}
