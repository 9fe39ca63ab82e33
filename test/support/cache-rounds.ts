import { expect } from 'vitest';
import { uploadBody } from './multipart.js';
import { gradientImage } from './uploads.js';

/*
 * Rounds of a write through one instance and, at once after its answer, reads through another
 * (multi-instance-http-cache*.test.ts): the reader's answer must show the write.
 */

/** What the writes name: the author they update, the round's number, and what a write prepared. */
export interface Vars {
  ada: string;
  adaId: number;
  n: number;
  [name: string]: string | number;
}

/** A kind of write, the GET that shows it, and how. */
export interface WriteKind {
  readonly name: string;
  /** The GET B answers before and after the write. */
  readonly read: (v: Vars) => string;
  /** Run on A before B's answer is warmed (what the write needs), not checked. */
  readonly prepare?: (a: string, v: Vars) => Promise<void>;
  readonly write: (a: string, v: Vars) => Promise<Response>;
  /** Whether an answer of `read` shows the write. */
  readonly shows: (body: string, v: Vars) => boolean;
}

/** A JSON request of `method` with `{ data }` as body. */
export const json = (method: string, data?: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  ...(data === undefined ? {} : { body: JSON.stringify({ data }) }),
});

/** The created document of a 201 answer (fails the test on any other status). */
export const created = async (answer: Promise<Response>): Promise<{ documentId: string; id: number }> => {
  const response = await answer;
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return (JSON.parse(text) as { data: { documentId: string; id: number } }).data;
};

/** Create, update (seen through populate), publish, delete, media upload. */
export const WRITES: readonly WriteKind[] = [
  {
    name: 'create',
    read: () => '/api/tags?pagination[pageSize]=100&sort=id',
    write: (a, v) => fetch(`${a}/api/tags`, json('POST', { name: `created ${v.n}` })),
    shows: (body, v) => body.includes(`"created ${v.n}"`),
  },
  {
    name: 'update (seen through populate)',
    read: () => '/api/articles?populate[author]=true&sort=id',
    write: (a, v) => fetch(`${a}/api/authors/${v.ada}`, json('PUT', { name: `Ada ${v.n}` })),
    shows: (body, v) => body.includes(`"Ada ${v.n}"`),
  },
  {
    name: 'publish',
    read: () => '/api/articles?pagination[pageSize]=100&sort=id',
    prepare: async (a, v) => {
      v.draft = (
        await created(fetch(`${a}/api/articles?status=draft`, json('POST', { title: `Draft ${v.n}` })))
      ).documentId;
    },
    write: (a, v) => fetch(`${a}/api/articles/${v.draft}`, json('PUT', { title: `Published ${v.n}` })),
    shows: (body, v) => body.includes(`"Published ${v.n}"`),
  },
  {
    name: 'delete',
    read: () => '/api/tags?pagination[pageSize]=100&sort=id',
    prepare: async (a, v) => {
      v.doomed = (await created(fetch(`${a}/api/tags`, json('POST', { name: `doomed ${v.n}` })))).documentId;
    },
    write: (a, v) => fetch(`${a}/api/tags/${v.doomed}`, { method: 'DELETE' }),
    shows: (body, v) => !body.includes(`"doomed ${v.n}"`),
  },
  {
    name: 'media upload linked to an entry',
    read: () => '/api/authors?populate[avatar]=true&sort=id',
    write: async (a, v) => {
      const png = await gradientImage(8, 8, 'png');
      const form = uploadBody({
        files: [{ filename: `avatar-${v.n}.png`, content: png, contentType: 'image/png' }],
        ref: 'api::author.author',
        refId: v.adaId,
        field: 'avatar',
      });
      return fetch(`${a}/api/upload`, { method: 'POST', headers: form.headers, body: form.payload });
    },
    shows: (body, v) => body.includes(`avatar-${v.n}`),
  },
];

/** A GET on `base`; `etag` goes in `If-None-Match`. */
export async function get(base: string, path: string, etag?: string) {
  const response = await fetch(`${base}${path}`, etag === undefined ? {} : { headers: { 'if-none-match': etag } });
  return {
    status: response.status,
    etag: response.headers.get('etag') ?? '',
    cache: response.headers.get('cache-status') ?? '',
    body: await response.text(),
  };
}

/** Reads `path` on `b` until its answer is kept and served from the cache; resolves with its ETag. */
export async function warm(b: string, path: string): Promise<string> {
  let answer = await get(b, path);
  for (let i = 0; i < 5 && !answer.cache.endsWith('hit'); i++) answer = await get(b, path);
  expect(answer.status).toBe(200);
  expect(answer.cache, `${path} is answered from B's cache before the write`).toBe('Cairn; hit');
  return answer.etag;
}

/** A write through `a`, then at once a GET on `b` with the ETag from before, and one without. */
export async function writeThenRead(kind: WriteKind, a: string, b: string, v: Vars): Promise<void> {
  await kind.prepare?.(a, v);
  const path = kind.read(v);
  const before = await warm(b, path);
  const write = await kind.write(a, v);
  const text = await write.text();
  expect(write.status, `${kind.name}: ${text}`).toBeLessThan(300);
  const revalidated = await get(b, path, before);
  expect(revalidated.status, `${kind.name}: B answered 304 to the ETag from before the write`).toBe(200);
  expect(kind.shows(revalidated.body, v), `${kind.name}: B's answer to If-None-Match misses the write`).toBe(true);
  const plain = await get(b, path);
  expect(kind.shows(plain.body, v), `${kind.name}: B's plain answer misses the write`).toBe(true);
  expect(plain.etag).not.toBe(before);
}
