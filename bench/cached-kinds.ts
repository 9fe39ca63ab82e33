import type { RequestKind } from './request-kinds.js';

/**
 * Cached reads (issue 21): for each request the limit server answers, the same GET answered from
 * Cairn's HTTP cache — `If-None-Match` with the current ETag (a 304 without SQL, on the Cairn of
 * the run) and a response-cache hit (a body kept in memory, on a second Cairn whose config/api.js
 * has `httpCache: { store: 'memory' }`). The limit server gets the same requests and ignores
 * `If-None-Match`: its figure is the uncached one, measured side by side.
 */
export function cachedKinds(base: readonly RequestKind[]): RequestKind[] {
  const etags = new Map<string, string>();
  const kinds: RequestKind[] = [];
  for (const kind of base.filter((one) => one.onLimitServer && !one.writes)) {
    kinds.push({
      name: `cached 304: ${kind.name}`,
      request: (n) => {
        const request = kind.request(n);
        return { ...request, headers: { 'if-none-match': etags.get(request.path) ?? '"none"' } };
      },
      onLimitServer: true,
      writes: false,
      expectStatus: 304,
      prepare: (cairnBase) => learn(cairnBase, kind, etags, true),
    });
    kinds.push({
      name: `cached body: ${kind.name}`,
      request: kind.request,
      onLimitServer: true,
      writes: false,
      server: 'response-cache',
      prepare: (cairnBase) => learn(cairnBase, kind, new Map(), false),
    });
  }
  return kinds;
}

/** How many distinct requests a kind rotates over, at most (the documents of the dataset). */
const MAX_DISTINCT = 5000;

/**
 * Sends each distinct request of `kind` until it is answered from the cache — a 304 with
 * `Cache-Status: Cairn; hit` to its ETag (`revalidate`), or a body with it — and remembers its
 * ETag; throws when a request is never answered so.
 */
async function learn(
  baseUrl: string,
  kind: RequestKind,
  etags: Map<string, string>,
  revalidate: boolean,
): Promise<void> {
  for (let n = 0; n < MAX_DISTINCT; n++) {
    const { path } = kind.request(n);
    if (etags.has(path)) return;
    let status = '';
    for (let attempt = 0; attempt < 3 && !status.endsWith('hit'); attempt++) {
      const etag = etags.get(path);
      const response = await fetch(
        `${baseUrl}${path}`,
        revalidate && etag ? { headers: { 'if-none-match': etag } } : {},
      );
      await response.arrayBuffer();
      status = response.headers.get('cache-status') ?? '';
      if (revalidate && status.endsWith('hit') && response.status !== 304) status = `${response.status} ${status}`;
      etags.set(path, response.headers.get('etag') ?? '');
    }
    if (!status.endsWith('hit')) throw new Error(`${kind.name}: ${path} is not answered from the cache (${status})`);
  }
}
