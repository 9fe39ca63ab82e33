import { expect } from 'vitest';
import { errorBody, scenario, type Step } from '../support/scenario.js';

const notFound = errorBody(404, 'NotFoundError', 'Not Found', {});
const methodNotAllowed = (method: string, path: string, allow: string): Step => ({
  name: `${method} ${path} is 405`,
  method,
  path,
  body: { data: {} },
  status: 405,
  check: ({ text, headers }) => {
    expect(text).toBe('Method Not Allowed');
    expect(String(headers['content-type'])).toMatch(/^text\/plain/);
    expect(headers.allow).toBe(allow);
  },
});
const strictKey = (key: string) =>
  errorBody(400, 'ValidationError', `Invalid key ${key}`, { key, path: null, source: 'query', param: key });

scenario('routing, strict parameters, body parsing, CORS and the v4 format', [
  {
    name: 'seed',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Version four', views: 4 } },
    status: 201,
    save: { a1: 'data.documentId' },
  },
  {
    name: 'seed another',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Another one', views: 1 } },
    status: 201,
  },
  {
    name: 'health',
    path: '/_health',
    status: 204,
    check: ({ headers, text }) => {
      expect(headers.strapi).toBe('You are so French!');
      expect(text).toBe('');
    },
  },
  { name: 'unknown route', path: '/api/nopes', status: 404, equal: notFound },
  { name: 'the API root', path: '/api', status: 404, equal: notFound },
  { name: 'deeper than a document', path: '/api/articles/{{a1}}/extra', status: 404, equal: notFound },
  { name: 'outside the API', path: '/nothing-here', status: 404, equal: notFound },
  { name: 'unknown documentId GET', path: '/api/articles/doesnotexist123', status: 404, equal: notFound },
  { name: 'unknown documentId DELETE is 204', method: 'DELETE', path: '/api/articles/doesnotexist123', status: 204 },
  methodNotAllowed('PATCH', '/api/articles/{{a1}}', 'GET, HEAD, PUT, DELETE'),
  methodNotAllowed('POST', '/api/articles/{{a1}}', 'GET, HEAD, PUT, DELETE'),
  methodNotAllowed('DELETE', '/api/articles', 'GET, HEAD, POST'),
  methodNotAllowed('PUT', '/api/tags', 'GET, HEAD, POST'),
  { name: 'unknown query key with strictParams', path: '/api/articles?foo=bar', status: 400, equal: strictKey('foo') },
  {
    name: 'unknown query key on a document',
    path: '/api/articles/{{a1}}?unknownParam=1',
    status: 400,
    equal: strictKey('unknownParam'),
  },
  {
    name: 'unknown query key on POST',
    method: 'POST',
    path: '/api/tags?debug=true',
    body: { data: { name: 'x' } },
    status: 400,
    equal: strictKey('debug'),
  },
  {
    name: 'the first unknown key is reported',
    path: '/api/articles?zzz=1&aaa=2',
    status: 400,
    equal: strictKey('zzz'),
  },
  {
    name: '_q searches text attributes',
    path: '/api/articles?_q=four&fields[0]=title',
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { title: string }) => d.title)).toEqual(['Version four']),
  },
  {
    name: '_q matches numbers when numeric',
    path: '/api/articles?_q=4&fields[0]=title',
    status: 200,
    check: ({ json }) => expect(json.data.map((d: { title: string }) => d.title)).toContain('Version four'),
  },
  { name: '_q escapes LIKE wildcards', path: '/api/articles?_q=%25&fields[0]=title', status: 200, match: { data: [] } },
  {
    name: 'HEAD answers like GET without a body',
    method: 'HEAD',
    path: '/api/articles?fields[0]=title',
    status: 200,
    check: ({ text, headers }) => {
      expect(text).toBe('');
      expect(String(headers['content-type'])).toMatch(/^application\/json/);
    },
  },
  {
    name: 'Strapi-Response-Format: v4 wraps attributes',
    path: '/api/articles?fields[0]=title&sort=title&pagination[pageSize]=1',
    headers: { 'Strapi-Response-Format': 'v4' },
    status: 200,
    check: ({ json }) => {
      expect(json.data).toEqual([
        { id: expect.any(Number), documentId: expect.any(String), attributes: { title: 'Another one' } },
      ]);
      expect(json.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: 2, total: 2 });
    },
  },
  {
    name: 'v4 on create',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    headers: { 'Strapi-Response-Format': 'v4' },
    body: { data: { name: 'from v4 client' } },
    status: 201,
    match: { data: { attributes: { name: 'from v4 client' } }, meta: {} },
  },
  {
    name: 'v4 leaves errors alone',
    path: '/api/articles/doesnotexist123',
    headers: { 'Strapi-Response-Format': 'v4' },
    status: 404,
    equal: notFound,
  },
  {
    name: 'urlencoded bodies',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: 'data%5Bname%5D=form%20encoded',
    status: 201,
    match: { data: { name: 'form encoded' } },
  },
  {
    name: 'malformed JSON',
    method: 'POST',
    path: '/api/articles',
    raw: '{"data": {"title": "oops",}',
    status: 400,
    equal: { data: null, error: { status: 400, name: 'SyntaxError', message: expect.stringMatching(/JSON/) } },
  },
  {
    name: 'a JSON string body',
    method: 'POST',
    path: '/api/articles',
    raw: '"abc"',
    status: 400,
    equal: {
      data: null,
      error: { status: 400, name: 'SyntaxError', message: 'invalid JSON, only supports object and array' },
    },
  },
  {
    name: 'a text/plain body is no body',
    method: 'POST',
    path: '/api/tags',
    headers: { 'content-type': 'text/plain' },
    raw: 'hello',
    status: 400,
    match: { error: { message: 'Missing "data" payload in the request body' } },
  },
  {
    name: 'a body over 1 MB',
    method: 'POST',
    path: '/api/tags',
    raw: `{"data":{"name":"${'a'.repeat(1_100_000)}"}}`,
    status: 413,
    equal: { data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'request entity too large' } },
  },
  {
    name: 'CORS preflight',
    method: 'OPTIONS',
    path: '/api/articles',
    headers: { origin: 'http://example.com', 'access-control-request-method': 'POST' },
    status: 204,
    check: ({ headers }) => {
      expect(headers['access-control-allow-origin']).toBe('http://example.com');
      expect(headers['access-control-allow-credentials']).toBe('true');
      expect(String(headers['access-control-allow-methods'])).toContain('PUT');
      expect(String(headers['access-control-allow-headers'])).toContain('Authorization');
      expect(headers['access-control-max-age']).toBe('31536000');
    },
  },
  {
    name: '__proto__ inside JSON is stored as data, never merged into objects',
    method: 'POST',
    path: '/api/articles?fields[0]=meta',
    raw: '{"data":{"title":"x","meta":{"__proto__":{"polluted":true}}}}',
    status: 201,
    check: ({ json }) => {
      expect(JSON.parse(JSON.stringify(json.data.meta))).toEqual(JSON.parse('{"__proto__":{"polluted":true}}'));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  },
  {
    name: 'blocks are validated like Strapi',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'x', content: [{ type: 'heading', level: 9, children: [{ type: 'text', text: 'h' }] }] } },
    status: 400,
    match: {
      error: {
        message: 'content[0].level must be one of the following values: 1, 2, 3, 4, 5, 6',
        details: { errors: [{ path: ['content', '0', 'level'], value: 9 }] },
      },
    },
  },
  {
    name: 'CORS on a simple request',
    path: '/api/articles',
    headers: { origin: 'http://example.com' },
    status: 200,
    check: ({ headers }) => expect(headers['access-control-allow-origin']).toBe('http://example.com'),
  },
]);

/** Inputs that make Strapi 5 answer 500 (or could crash a careless server): each must be a 4xx. */
const hostile: [string, string, string?][] = [
  ['GET', '/api/articles?filters[views][$gt]=abc'],
  ['GET', '/api/articles?filters[$or][title]=x'],
  ['GET', '/api/articles?filters[views][$between]=1'],
  ['GET', '/api/articles?filters[$and]=x'],
  ['GET', '/api/articles?filters[$not]=x'],
  ['GET', '/api/articles?filters[title][$in][a]=1'],
  ['GET', '/api/articles?filters[eventAt][$gt]=never'],
  ['GET', '/api/articles?filters[publishTime][$eq]=noon'],
  ['GET', '/api/articles?filters[bigcount][$eq]=1.5'],
  ['GET', '/api/articles?filters[id]=abc'],
  ['GET', '/api/articles?filters[title][$eq][$eq]=x'],
  ['GET', '/api/articles?sort[title][x]=asc'],
  ['GET', '/api/articles?sort=:desc'],
  ['GET', '/api/articles?sort=title:'],
  ['GET', '/api/articles?fields[0][x]=1'],
  ['GET', '/api/articles?pagination[page]=1.5'],
  ['GET', '/api/articles?pagination[limit]=abc'],
  ['GET', '/api/articles?pagination[start]=abc'],
  ['GET', '/api/articles?pagination[page][x]=1'],
  ['GET', '/api/articles?status[0]=draft'],
  ['GET', '/api/articles?locale[0]=en'],
  ['GET', '/api/articles?_q[0]=x'],
  ['GET', '/api/articles?publicationFilter[0]=modified'],
  ['GET', `/api/articles?filters${'[$and][0]'.repeat(30)}[title]=x`],
  ['GET', '/api/articles/%E0%A4%A'],
  ['DELETE', '/api/articles/x?status=draft'],
  ['PUT', '/api/articles/x?locale=*', '{"data":{"title":"x"}}'],
  ['POST', '/api/articles', '{"data":{"__proto__":{"x":1}}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","views":1e400}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","publishDate":{"y":1}}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","eventAt":[1,2]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","publishTime":123}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","bigcount":true}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","isFeatured":{}}}'],
  ['POST', '/api/articles', '{"data":{"title":["x"]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","content":"not blocks"}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","content":[{"type":"video"}]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","content":[{"type":"paragraph","children":[]}]}}'],
  [
    'POST',
    '/api/articles',
    '{"data":{"title":"x","content":[{"type":"paragraph","children":[{"type":"link","url":"::","children":[]}]}]}}',
  ],
  ['POST', '/api/articles', '{"data":{"title":"x","secretCode":42}}'],
  ['GET', '/api/articles?populate[author][populate][nope]=true'],
  ['GET', '/api/articles?populate[author]=maybe'],
  ['GET', '/api/articles?populate[author][fields]=nope'],
  ['GET', '/api/articles?populate[tags][sort]=nope'],
  ['GET', '/api/articles?populate[tags][filters][name][$gt][x]=1'],
  ['GET', '/api/articles?populate[seo][on][shared.seo]=true'],
  ['GET', '/api/articles?populate[blocks][on]=x'],
  ['GET', '/api/articles?populate[blocks][on][shared.quote][sort]=nope'],
  ['GET', '/api/articles?populate=author..name'],
  ['GET', '/api/articles?filters[author][$eq]=x'],
  ['GET', '/api/articles?filters[author][id][$eq]=x'],
  ['GET', '/api/articles?filters[author][name][$eq]=x&filters[author][$in]=1'],
  ['GET', '/api/articles?filters[tags][name][$in][a]=x'],
  ['GET', '/api/articles?filters[seo][keywords][nope]=x'],
  ['GET', '/api/articles?filters[cover][related]=1'],
  ['GET', '/api/articles?sort=author.nope'],
  ['GET', '/api/articles?sort=seo'],
  ['GET', '/api/articles?sort=cover.name.x'],
  ['POST', '/api/articles', '{"data":{"title":"x","author":true}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","author":{"connect":"nosuchdocument000000000"}}}'],
  [
    'POST',
    '/api/articles',
    '{"data":{"title":"x","tags":{"connect":[{"documentId":"a","position":{"before":"b","after":"c"}}]}}}',
  ],
  ['POST', '/api/articles', '{"data":{"title":"x","tags":[1e400]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","tags":[{"documentId":{"x":1}}]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","tags":{"set":{"x":1}}}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","tags":[9999999]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","cover":"abc"}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","cover":[1,2]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","gallery":[{"id":-1}]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","gallery":[99999999]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","seo":"x"}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","seo":{"metaTitle":"m","keywords":[null,1,"a"]}}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","blocks":[null]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","blocks":[{"__component":{"x":1}}]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","blocks":[{"__component":"shared.seo","metaTitle":"x"}]}}'],
  ['POST', '/api/articles', '{"data":{"title":"x","blocks":[{"__component":"shared.quote","author":[1,2]}]}}'],
];

scenario(
  'hostile input never yields a 500',
  hostile.map(([method, path, raw]): Step => ({
    name: `${method} ${path.slice(0, 90)}${raw ? ` ${raw.slice(0, 60)}` : ''}`,
    method,
    path,
    ...(raw ? { raw } : {}),
    auth: 'full',
    status: 'client-error',
  })),
);
