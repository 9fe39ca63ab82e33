import { describe, expect, it } from 'vitest';
import { loadTypeScript, type TypeScriptApi } from './load-typescript.js';
import { readMiddlewareRoutes } from './read-middleware-routes.js';
import { readQueryMiddleware } from './read-query-middlewares.js';

const ts = loadTypeScript(process.cwd()) as TypeScriptApi;
const read = (source: string, file = 'src/api/page/middlewares/page-populate.ts') =>
  readQueryMiddleware(ts, file, source);
const wrap = (body: string) =>
  `export default (config, { strapi }) => async (ctx, next) => { ${body}; await next(); };`;

describe('readQueryMiddleware', () => {
  it.each([
    ['ctx.query.populate = { hero: true }', { populate: { hero: true } }],
    ["ctx.query['fields'] = ['title', 'slug']", { fields: ['title', 'slug'] }],
    ['ctx.query = { ...ctx.query, populate: "*", sort: "title:asc" }', { populate: '*', sort: 'title:asc' }],
    ['ctx.query = { filters: { slug: { $eq: "home" } }, ...ctx.query }', { filters: { slug: { $eq: 'home' } } }],
    ['Object.assign(ctx.query, { populate: { seo: { populate: "*" } } })', { populate: { seo: { populate: '*' } } }],
    ['ctx.request.query.populate ||= ["a", "b"]', { populate: ['a', 'b'] }],
    [
      'ctx.query.populate = { n: -1, t: `x`, z: null, f: false } satisfies object',
      { populate: { n: -1, t: 'x', z: null, f: false } },
    ],
  ])('%s', (body, query) => {
    expect(read(wrap(body))).toEqual({ file: 'src/api/page/middlewares/page-populate.ts', query, problems: [] });
  });

  it('follows const names and spreads of them', () => {
    const source = `const seo = { populate: '*' } as const;
const base = { seo, cover: true };
const populate = { ...base, blocks: { on: { 'shared.hero': true } } };
${wrap('ctx.query = { ...ctx.query, populate }')}`;
    expect(read(source)?.query).toEqual({
      populate: { seo: { populate: '*' }, cover: true, blocks: { on: { 'shared.hero': true } } },
    });
  });

  it('says why a value is not a literal', () => {
    expect(read(wrap('ctx.query.populate = { [key]: true }'))?.problems).toEqual(['populate: the computed key [key]']);
    expect(read(wrap('ctx.query.filters = { slug: `${ctx.params.slug}` }'))?.problems).toEqual([
      'filters: `${ctx.params.slug}` is not a literal',
    ]);
    expect(read(wrap('let p = {}; ctx.query.populate = p'))?.problems).toEqual([
      'populate: p is not a const bound to a literal in this file',
    ]);
  });

  it('is null for a middleware that sets no default parameter', () => {
    expect(read(wrap('console.log(ctx.query)'))).toBeNull();
    expect(read(wrap('ctx.query = { ...ctx.query, locale: "fr" }'))).toBeNull();
  });
});

describe('readMiddlewareRoutes', () => {
  it('reads createCoreRouter configs and custom routes', () => {
    const core = `export default factories.createCoreRouter('api::page.page', {
      config: { find: { middlewares: ['api::page.page-populate'] }, findOne: { policies: [] } },
    });`;
    expect(readMiddlewareRoutes(ts, 'page', 'src/api/page/routes/page.ts', core)).toEqual([
      { middleware: 'api::page.page-populate', action: 'api::page.page.find', core: true },
    ]);
    const custom = `module.exports = { routes: [
      { method: 'GET', path: '/pages/:slug', handler: 'page.findBySlug', config: { middlewares: ['api::page.page-populate'] } },
      { method: 'GET', path: '/home', handler: 'api::page.page.find', config: { middlewares: [{ name: 'api::page.page-populate' }] } },
    ] };`;
    expect(readMiddlewareRoutes(ts, 'page', 'src/api/page/routes/custom.js', custom)).toEqual([
      { middleware: 'api::page.page-populate', action: 'api::page.page.findBySlug', core: false },
      { middleware: 'api::page.page-populate', action: 'api::page.page.find', core: true },
    ]);
  });
});
