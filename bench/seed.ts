import { articleBody, type Dataset, type SeedImage } from './dataset.js';

/** What seeding created: documentIds in dataset order, and how long it took. */
export interface SeedResult {
  readonly authorIds: readonly string[];
  readonly tagIds: readonly string[];
  readonly articleIds: readonly string[];
  /** Ids of the uploaded files, in dataset order. */
  readonly fileIds: readonly number[];
  readonly seconds: number;
}

const CONCURRENCY = 8;

/**
 * Seeds a dataset through Cairn's REST API (as a client would): images through POST /api/upload
 * (generated JPEGs, so every image gets its formats), authors (with avatars) and tags, then the
 * articles with their relations, media, components and dynamic zones. Any non-2xx stops the run.
 */
export async function seedThroughApi(baseUrl: string, dataset: Dataset): Promise<SeedResult> {
  const started = performance.now();
  const fileIds = await uploadAll(baseUrl, dataset.images);
  const avatar = (index: number) => (fileIds.length === 0 ? {} : { avatar: fileIds[index % fileIds.length] });
  const authorIds = await createAll(
    baseUrl,
    '/api/authors',
    dataset.authors.map((data, index) => ({ data: { ...data, ...avatar(index) } })),
  );
  const tagIds = await createAll(
    baseUrl,
    '/api/tags',
    dataset.tags.map((data) => ({ data })),
  );
  const articleIds = await createAll(
    baseUrl,
    '/api/articles',
    dataset.articles.map((article) => articleBody(article, authorIds, tagIds, fileIds)),
  );
  return { authorIds, tagIds, articleIds, fileIds, seconds: (performance.now() - started) / 1000 };
}

/** Uploads the images one request each (two in flight), returning their file ids in order. */
async function uploadAll(baseUrl: string, images: readonly SeedImage[]): Promise<number[]> {
  if (images.length === 0) return [];
  const { default: sharp } = await import('sharp');
  const ids: number[] = new Array<number>(images.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < images.length) {
      const index = nextIndex++;
      const image = images[index] as SeedImage;
      const gradient = Buffer.alloc(image.width * 3);
      for (let x = 0; x < image.width; x++) {
        for (let c = 0; c < 3; c++)
          gradient[x * 3 + c] = Math.round(image.from[c]! + ((image.to[c]! - image.from[c]!) * x) / image.width);
      }
      const rows = Buffer.concat(Array.from({ length: image.height }, () => gradient));
      const jpeg = await sharp(rows, { raw: { width: image.width, height: image.height, channels: 3 } })
        .jpeg({ quality: 85 })
        .toBuffer();
      const form = new FormData();
      form.append('files', new Blob([jpeg], { type: 'image/jpeg' }), image.name);
      const response = await fetch(`${baseUrl}/api/upload`, { method: 'POST', body: form });
      const text = await response.text();
      if (response.status !== 201)
        throw new Error(`seeding POST /api/upload answered ${response.status}: ${text.slice(0, 500)}`);
      ids[index] = (JSON.parse(text) as { id: number }[])[0]?.id as number;
    }
  };
  await Promise.all(Array.from({ length: 2 }, worker));
  return ids;
}

/** POSTs every body with a few requests in flight, keeping the result order. */
async function createAll(baseUrl: string, path: string, bodies: readonly unknown[]): Promise<string[]> {
  const ids: string[] = new Array<string>(bodies.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < bodies.length) {
      const index = nextIndex++;
      ids[index] = await createOne(baseUrl, path, bodies[index]);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return ids;
}

async function createOne(baseUrl: string, path: string, body: unknown): Promise<string> {
  const response = await fetch(`${baseUrl}${path}?fields[0]=documentId`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201)
    throw new Error(`seeding POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { data: { documentId: string } }).data.documentId;
}
