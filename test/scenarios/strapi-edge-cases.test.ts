import { expect } from 'vitest';
import { errorBody, scenario, type Step } from '../support/scenario.js';

// Issue 16 item 13 (query and validation parts): populate fragments, counts and error paths, and
// validation messages, each as real Strapi 5.54 answers them (checked against a running Strapi
// on the blog fixture).

const invalidKey = (key: string, path: string | null) =>
  errorBody(
    400,
    'ValidationError',
    path === null || path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`,
    { key, path, source: 'query', param: 'populate' },
  );
const fragmentsRefused = (attribute: string) =>
  errorBody(
    400,
    'ValidationError',
    `Using fragments is not permitted to populate "${attribute}" in "api::article.article"`,
    {},
  );
const fieldErrors = (errors: readonly { path: string[]; message: string; value?: unknown }[]) =>
  errorBody(
    400,
    'ValidationError',
    errors.length === 1 ? (errors[0]?.message ?? '') : `${errors.length} errors occurred`,
    {
      errors: errors.map((e) => ({ ...e, name: 'ValidationError' })),
    },
  );

type Block = { __component: string; title?: string; body?: string };
const zone = (json: { data: { blocks: Block[] } }) =>
  json.data.blocks.map((b) => `${b.__component}:${b.title ?? b.body}`);

/** A read of the seeded article with `query`, answering 200 with these zone items. */
const zoneRead = (name: string, query: string, items: string[]): Step => ({
  name,
  path: `/api/articles/{{a}}?fields[0]=title&${query}`,
  status: 200,
  check: ({ json }) => expect(zone(json)).toEqual(items),
});
const refused = (name: string, query: string, body: unknown): Step => ({
  name,
  path: `/api/articles/{{a}}?fields[0]=title&${query}`,
  status: 400,
  equal: body,
});

const ALL = ['shared.quote:q1', 'shared.rich-text:rt', 'shared.quote:q2'];

scenario('populate edge cases as Strapi 5.54 answers them', [
  {
    name: 'seed an article with a component and a zone',
    method: 'POST',
    path: '/api/articles',
    body: {
      data: {
        title: 'Zone',
        seo: { metaTitle: 'm' },
        blocks: [
          { __component: 'shared.quote', title: 'q1' },
          { __component: 'shared.rich-text', body: 'rt' },
          { __component: 'shared.quote', title: 'q2' },
        ],
      },
    },
    status: 201,
    save: { a: 'data.documentId' },
  },
  zoneRead('count on a dynamic zone is ignored: the items come back', 'populate[blocks][count]=true', ALL),
  zoneRead(
    'count beside on: the fragment wins, count ignored',
    'populate[blocks][on][shared.quote]=true&populate[blocks][count]=true',
    ['shared.quote:q1', 'shared.quote:q2'],
  ),
  zoneRead('on naming a component the zone does not allow: nothing of it', 'populate[blocks][on][shared.seo]=true', []),
  zoneRead(
    'a disallowed fragment beside an allowed one',
    'populate[blocks][on][shared.seo][fields][0]=metaTitle&populate[blocks][on][shared.quote]=true',
    ['shared.quote:q1', 'shared.quote:q2'],
  ),
  zoneRead('on naming a content type: nothing of it', 'populate[blocks][on][api::author.author]=true', []),
  zoneRead('fragment filters select the component items', 'populate[blocks][on][shared.quote][filters][title]=q2', [
    'shared.quote:q2',
  ]),
  zoneRead('fragment sort is checked and ignored (zone order)', 'populate[blocks][on][shared.quote][sort]=title:desc', [
    'shared.quote:q1',
    'shared.quote:q2',
  ]),
  zoneRead('fragment count is ignored', 'populate[blocks][on][shared.quote][count]=true', [
    'shared.quote:q1',
    'shared.quote:q2',
  ]),
  zoneRead('a fragment set to false still selects its component', 'populate[blocks][on][shared.quote]=false', [
    'shared.quote:q1',
    'shared.quote:q2',
  ]),
  zoneRead('an empty on selects nothing', 'populate[blocks][on]=', []),
  {
    name: 'a top-level dotted path through the zone populates where it fits',
    path: '/api/articles/{{a}}?fields[0]=title&populate=blocks.author',
    status: 200,
    check: ({ json }) => {
      expect(zone(json)).toEqual(ALL);
      expect(json.data.blocks.map((b: Record<string, unknown>) => 'author' in b)).toEqual([true, false, true]);
    },
  },
  refused('on on a plain component', 'populate[seo][on][shared.seo][fields][0]=metaTitle', fragmentsRefused('seo')),
  refused('on on a relation', 'populate[author][on][api::author.author][fields][0]=name', fragmentsRefused('author')),
  refused('on that is no object, on a component', 'populate[seo][on]=x', invalidKey('on', 'seo.on')),
  refused('on that is no object, on a zone', 'populate[blocks][on]=x', invalidKey('on', 'blocks.on')),
  refused(
    'fragments are checked before being refused',
    'populate[seo][on][shared.quote][fields][0]=nope',
    invalidKey('nope', null),
  ),
  refused(
    'an unknown component in on',
    'populate[blocks][on][shared.nope]=true',
    invalidKey('shared.nope', 'blocks.on.shared.nope'),
  ),
  refused(
    'an invalid key in a fragment reports the zone',
    'populate[blocks][on][shared.quote][nope]=1',
    invalidKey('nope', 'blocks'),
  ),
  refused(
    'an invalid key in a fragment populate reports the zone',
    'populate[blocks][on][shared.quote][populate][nope]=true',
    invalidKey('nope', 'blocks'),
  ),
  refused(
    'deeper in a fragment: the zone, then the attributes',
    'populate[blocks][on][shared.quote][populate][author][populate][nope]=true',
    invalidKey('nope', 'blocks.author'),
  ),
  refused(
    'a string fragment naming an attribute',
    'populate[blocks][on][shared.quote]=author',
    invalidKey('author', 'blocks.author'),
  ),
  refused('a string fragment naming nothing', 'populate[blocks][on][shared.quote]=nope', invalidKey('nope', 'blocks')),
  refused('a zone populate other than *', 'populate[blocks][populate][author]=true', invalidKey('populate', 'blocks')),
  refused(
    'a nested dotted string counts its path from itself',
    'populate[author][populate]=articles.nope',
    invalidKey('nope', 'articles.nope'),
  ),
  refused('a nested one-segment string', 'populate[author][populate]=nope', invalidKey('nope', 'nope')),
  refused(
    'a nested dotted string through a zone',
    'populate[author][populate]=articles.blocks.author',
    invalidKey('populate', 'author.populate.articles.populate.blocks'),
  ),
  refused('a count that is no boolean', 'populate[seo][count]=nope', invalidKey('count', 'seo')),
  refused(
    'fields in a nested populate: path null',
    'populate[author][populate][articles][fields][0]=nope',
    invalidKey('nope', null),
  ),
]);

scenario('validation messages as Strapi 5.54 words them', [
  {
    name: 'seed',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Valid', blocks: [{ __component: 'shared.quote', title: 'q' }] } },
    status: 201,
    save: { a: 'data.documentId' },
  },
  {
    name: 'an enumeration given a number: cast to text, then oneOf',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'E', category: 5 } },
    status: 400,
    equal: fieldErrors([
      { path: ['category'], message: 'category must be one of the following values: news, tech, life, ', value: '5' },
    ]),
  },
  {
    name: 'an enumeration given a boolean',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'E', category: true } },
    status: 400,
    equal: fieldErrors([
      {
        path: ['category'],
        message: 'category must be one of the following values: news, tech, life, ',
        value: 'true',
      },
    ]),
  },
  {
    name: 'an enumeration given an array: the type error and oneOf',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'E', category: ['news'] } },
    status: 400,
    equal: fieldErrors([
      {
        path: ['category'],
        message: 'category must be a `string` type, but the final value was: `[\n  "\\"news\\""\n]`.',
        value: ['news'],
      },
      {
        path: ['category'],
        message: 'category must be one of the following values: news, tech, life, ',
        value: ['news'],
      },
    ]),
  },
  {
    name: 'a body of whitespace',
    method: 'POST',
    path: '/api/articles',
    raw: '   ',
    status: 400,
    equal: {
      data: null,
      error: { status: 400, name: 'SyntaxError', message: 'invalid JSON, only supports object and array' },
    },
  },
  {
    name: 'a body that is no JSON object',
    method: 'POST',
    path: '/api/articles',
    raw: 'nope',
    status: 400,
    equal: {
      data: null,
      error: { status: 400, name: 'SyntaxError', message: 'invalid JSON, only supports object and array' },
    },
  },
  {
    name: 'null for a dynamic zone in an update',
    method: 'PUT',
    path: '/api/articles/{{a}}',
    body: { data: { blocks: null } },
    status: 400,
    equal: fieldErrors([
      { path: ['blocks'], message: 'blocks must be a `array` type, but the final value was: `null`.', value: null },
    ]),
  },
  {
    name: 'null for a dynamic zone in a draft create',
    method: 'POST',
    path: '/api/articles?status=draft',
    body: { data: { title: 'N', blocks: null } },
    status: 400,
    equal: fieldErrors([
      { path: ['blocks'], message: 'blocks must be a `array` type, but the final value was: `null`.', value: null },
    ]),
  },
  {
    name: 'null for a repeatable component',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'N', seo: { metaTitle: 'm', keywords: null } } },
    status: 400,
    equal: fieldErrors([
      {
        path: ['seo', 'keywords'],
        message: 'seo.keywords must be a `array` type, but the final value was: `null`.',
        value: null,
      },
    ]),
  },
  {
    name: 'the zone was left alone',
    path: '/api/articles/{{a}}?fields[0]=title&populate=blocks',
    status: 200,
    match: { data: { blocks: [{ __component: 'shared.quote', title: 'q' }] } },
  },
  {
    name: 'null still clears a single component',
    method: 'PUT',
    path: '/api/articles/{{a}}?populate=seo',
    body: { data: { seo: null } },
    status: 200,
    match: { data: { seo: null } },
  },
]);
