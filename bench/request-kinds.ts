import type { SeedArticle } from './dataset.js';
import { articleBody } from './dataset.js';

/** One request the load generator sends; `body` is JSON text. */
export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly body?: string;
  /** Headers sent besides `content-type` (`If-None-Match`, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A kind of request the benchmark measures. */
export interface RequestKind {
  readonly name: string;
  /** The `n`-th request of this kind (kinds that rotate over documents use `n`). */
  request(n: number): BenchRequest;
  /** True when the limit server answers this request too (its ratio is printed). */
  readonly onLimitServer: boolean;
  readonly writes: boolean;
  /** The status every answer must have (2xx when absent); any other counts as an error. */
  readonly expectStatus?: number;
  /** Which Cairn answers: the run's (default), or the one whose response cache keeps bodies in memory. */
  readonly server?: 'response-cache';
  /** Run once against that Cairn before the kind is measured (what the kind needs warm). */
  readonly prepare?: (baseUrl: string) => Promise<void>;
}

/** What request kinds need from the seeded data. */
export interface KindInputs {
  readonly articleIds: readonly string[];
  readonly authorIds: readonly string[];
  readonly tagIds: readonly string[];
  readonly fileIds: readonly number[];
  /** A dataset article the create requests send (with relations, seo and a dynamic zone). */
  readonly createTemplate: SeedArticle;
}

const NESTED_DZ =
  'populate[blocks][on][shared.quote][populate][author][populate][articles][fields][0]=title' +
  '&populate[blocks][on][shared.rich-text]=true&populate[blocks][on][shared.media-block]=true';
const RELATION_FILTER =
  'filters[author][name][$startsWith]=Author%2000&sort[0]=publishDate:desc' +
  '&populate[author][fields][0]=name&populate[tags][fields][0]=name';

/** The request kinds of issue 5, reads first (writes change the data the reads see). */
export function requestKinds(inputs: KindInputs): RequestKind[] {
  const rotate = (n: number) => inputs.articleIds[n % inputs.articleIds.length] as string;
  const get = (name: string, path: (n: number) => string, onLimitServer: boolean): RequestKind => ({
    name,
    request: (n) => ({ method: 'GET', path: path(n) }),
    onLimitServer,
    writes: false,
  });
  const { slug: _slug, ...createFields } = inputs.createTemplate.fields;
  const createBody = JSON.stringify(
    articleBody(
      { ...inputs.createTemplate, fields: { ...createFields, title: 'Benchmark article' } },
      inputs.authorIds,
      inputs.tagIds,
      inputs.fileIds,
    ),
  );
  return [
    get('plain list', () => '/api/articles', true),
    get('populate=*', () => '/api/articles?populate=*', true),
    get('populate=*, pageSize 100', () => '/api/articles?populate=*&pagination[pageSize]=100', true),
    get('one document, populate=*', (n) => `/api/articles/${rotate(n)}?populate=*`, true),
    get('relation filter + sort + populate', () => `/api/articles?${RELATION_FILTER}`, false),
    get('3-level populate through DZ', () => `/api/articles?${NESTED_DZ}`, false),
    {
      name: 'create (relations + components)',
      request: () => ({ method: 'POST', path: '/api/articles', body: createBody }),
      onLimitServer: false,
      writes: true,
    },
    {
      name: 'update one field',
      request: (n) => ({
        method: 'PUT',
        path: `/api/articles/${rotate(n * 7919)}`,
        body: JSON.stringify({ data: { views: n } }),
      }),
      onLimitServer: false,
      writes: true,
    },
  ];
}
