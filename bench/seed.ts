import { articleBody, type Dataset } from './dataset.js';

/** What seeding created: documentIds in dataset order, and how long it took. */
export interface SeedResult {
  readonly authorIds: readonly string[];
  readonly tagIds: readonly string[];
  readonly articleIds: readonly string[];
  readonly seconds: number;
}

const CONCURRENCY = 8;

/**
 * Seeds a dataset through Cairn's REST API (as a client would): authors and tags first, then the
 * articles with their relations, components and dynamic zones. Any non-2xx stops the run.
 */
export async function seedThroughApi(baseUrl: string, dataset: Dataset): Promise<SeedResult> {
  const started = performance.now();
  const authorIds = await createAll(baseUrl, '/api/authors', dataset.authors.map((data) => ({ data })));
  const tagIds = await createAll(baseUrl, '/api/tags', dataset.tags.map((data) => ({ data })));
  const articleIds = await createAll(baseUrl, '/api/articles', dataset.articles.map((article) => articleBody(article, authorIds, tagIds)));
  return { authorIds, tagIds, articleIds, seconds: (performance.now() - started) / 1000 };
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
  if (response.status !== 201) throw new Error(`seeding POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { data: { documentId: string } }).data.documentId;
}
