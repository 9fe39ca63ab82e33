import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { normalizeQuery } from '../query/normalize-query.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { buildSchema } from '../schema/build-schema.js';
import type { ContentType, Schema } from '../schema/types.js';
import { rawCollectionType, rawComponent } from '../../test/support/unit.js';
import { ifNoneMatchNames, strongEtag, taggedJson, withEtag } from './etag.js';
import { typesRead, UNKNOWN_TYPE } from './types-read.js';

const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';
const TAG = 'api::tag.tag';
const FILE = 'plugin::upload.file';

const schema: Schema = buildSchema(
  [
    ...BUILTIN_CONTENT_TYPES,
    rawCollectionType(
      ARTICLE,
      'article',
      'articles',
      {
        title: { type: 'string' },
        author: { type: 'relation', relation: 'manyToOne', target: AUTHOR, inversedBy: 'articles' },
        tags: { type: 'relation', relation: 'manyToMany', target: TAG, inversedBy: 'articles' },
        cover: { type: 'media', multiple: false },
        seo: { type: 'component', component: 'shared.seo' },
        blocks: { type: 'dynamiczone', components: ['shared.quote', 'shared.text'] },
      },
      { pluginOptions: { i18n: { localized: true } } },
    ),
    rawCollectionType(AUTHOR, 'author', 'authors', {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'oneToMany', target: ARTICLE, mappedBy: 'author' },
    }),
    rawCollectionType(TAG, 'tag', 'tags', {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'manyToMany', target: ARTICLE, mappedBy: 'tags' },
    }),
  ],
  [
    rawComponent('shared.seo', 'components_shared_seos', {
      metaTitle: { type: 'string' },
      image: { type: 'media', multiple: false },
      keywords: { type: 'component', component: 'shared.keyword', repeatable: true },
    }),
    rawComponent('shared.keyword', 'components_shared_keywords', {
      word: { type: 'string' },
      tag: { type: 'relation', relation: 'oneToOne', target: TAG },
    }),
    rawComponent('shared.quote', 'components_shared_quotes', {
      text: { type: 'text' },
      author: { type: 'relation', relation: 'oneToOne', target: AUTHOR },
    }),
    rawComponent('shared.text', 'components_shared_texts', { body: { type: 'text' } }),
  ],
);
const article = schema.contentTypes.get(ARTICLE) as ContentType;
const API = {
  prefix: '/api',
  defaultLimit: 25,
  maxLimit: 100,
  withCount: true,
  strictParams: false,
  documentsStrictParams: false,
  privateAttributes: [],
  defaultQueries: new Map(),
  deepPopulate: null,
};
const read = (query: string) =>
  [
    ...typesRead(
      schema,
      article,
      normalizeQuery(schema, article, qs.parse(query, { depth: 20 }), { api: API, defaultLocale: 'en' }),
    ),
  ].sort();

describe('typesRead', () => {
  it('a plain read takes rows of its own type only', () => {
    expect(read('')).toEqual([ARTICLE]);
    expect(read('fields[0]=title&sort=title&filters[title][$eq]=x')).toEqual([ARTICLE]);
  });

  it('populated relations and media add their targets; localizations add nothing', () => {
    expect(read('populate[author]=true&populate[cover]=true')).toEqual([AUTHOR, ARTICLE, FILE].sort());
    expect(read('populate[localizations]=true')).toEqual([ARTICLE]);
    expect(read('populate[tags][populate][articles][populate][author]=true')).toEqual([AUTHOR, ARTICLE, TAG].sort());
  });

  it('components and dynamic zones add what is populated inside them, not themselves', () => {
    expect(read('populate[seo]=true')).toEqual([ARTICLE]);
    expect(read('populate[seo][populate][image]=true')).toEqual([ARTICLE, FILE].sort());
    expect(read('populate[seo][populate][keywords][populate][tag]=true')).toEqual([ARTICLE, TAG].sort());
    expect(read('populate[blocks][on][shared.quote][populate][author]=true')).toEqual([AUTHOR, ARTICLE].sort());
    expect(read('populate[blocks][on][shared.text]=true')).toEqual([ARTICLE]);
  });

  it('filters and sorts through relations add the types they go through', () => {
    expect(read('filters[author][name][$eq]=Ada')).toEqual([AUTHOR, ARTICLE].sort());
    expect(read('filters[$or][0][tags][name][$eq]=x&filters[$or][1][title][$eq]=y')).toEqual([ARTICLE, TAG].sort());
    expect(read('sort=author.name:desc')).toEqual([AUTHOR, ARTICLE].sort());
    expect(read('populate[tags][filters][articles][author][name][$eq]=Ada')).toEqual([AUTHOR, ARTICLE, TAG].sort());
  });

  it('populate=* reads every relation target, media and localizations', () => {
    expect(read('populate=*')).toEqual([AUTHOR, ARTICLE, TAG, FILE].sort());
    expect(read('populate=*')).not.toContain(UNKNOWN_TYPE);
  });
});

describe('strong ETags', () => {
  it('are a quoted digest of the body: equal bodies, equal tags', () => {
    expect(strongEtag('{"data":[]}')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(strongEtag('{"data":[]}')).toBe(strongEtag('{"data":[]}'));
    expect(strongEtag('{"data":[]}')).not.toBe(strongEtag('{"data":[1]}'));
  });

  it('If-None-Match: *, lists, and weak forms of the tag name it', () => {
    expect(ifNoneMatchNames('"a", W/"b"', '"b"')).toBe(true);
    expect(ifNoneMatchNames('"a"', '"b"')).toBe(false);
    expect(ifNoneMatchNames('*', '"b"')).toBe(true);
    expect(ifNoneMatchNames(undefined, '"b"')).toBe(false);
  });

  it('withEtag serializes a 200 once, tags it, and answers 304 to its tag', () => {
    const answer = withEtag(undefined, { status: 200, body: { data: [] } });
    expect(answer).toEqual({
      status: 200,
      headers: { etag: strongEtag('{"data":[]}') },
      raw: { contentType: 'application/json; charset=utf-8', content: Buffer.from('{"data":[]}') },
    });
    expect(withEtag(strongEtag('{"data":[]}'), { status: 200, body: { data: [] } })).toEqual({
      status: 304,
      headers: { etag: strongEtag('{"data":[]}') },
    });
    const error = { status: 404, body: { error: {} } };
    expect(withEtag(undefined, error)).toBe(error);
  });

  it('taggedJson tags the UTF-8 bytes it returns, as strongEtag tags the same text', () => {
    const value = { data: { title: 'Été ’24 — 🌍' } };
    const { bytes, etag } = taggedJson(value);
    expect(bytes.toString('utf8')).toBe(JSON.stringify(value));
    expect(etag).toBe(strongEtag(JSON.stringify(value)));
  });
});
