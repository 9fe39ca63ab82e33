import { describe, expect, it } from 'vitest';
import type { HttpResponse, Route } from './http-types.js';
import { deferredTable } from './deferred-routes.js';

const answer = (body: string) => async (): Promise<HttpResponse> => ({ status: 200, body });
const ROUTES: Route[] = [
  { method: 'GET', path: '/admin/init', handle: answer('init') },
  { method: 'POST', path: '/admin/login', handle: answer('login') },
  { method: 'GET', path: '/content-manager/collection-types/:model/:id', handle: answer('entry') },
  { method: 'PUT', path: '/content-manager/collection-types/:model/:id', handle: answer('update') },
];

describe('deferredTable', () => {
  it('builds the routes once, on the first match, however many matches wait for it', async () => {
    let loads = 0;
    const table = deferredTable({
      prefixes: ['/admin', '/content-manager'],
      load: async () => {
        loads++;
        await new Promise((done) => setTimeout(done, 20));
        return ROUTES;
      },
    });
    expect(loads).toBe(0);
    expect(table.allowOf('/admin/login')).toBeUndefined();
    const found = await Promise.all(Array.from({ length: 10 }, () => table.match('POST', '/admin/login')));
    expect(loads).toBe(1);
    expect(found.every((match) => match?.route === ROUTES[1])).toBe(true);
    await table.match('GET', '/admin/init');
    expect(loads).toBe(1);
  });

  it('finds a route by method and path, with its decoded parameters, the query string and a trailing slash ignored', async () => {
    const table = deferredTable({ prefixes: ['/admin', '/content-manager'], load: async () => ROUTES });
    const found = await table.match('GET', '/content-manager/collection-types/api::article.article/a%20b/?locale=fr');
    expect(found?.route).toBe(ROUTES[2]);
    expect(found?.params).toEqual({ model: 'api::article.article', id: 'a b' });
    expect((await table.match('HEAD', '/admin/init'))?.route, 'HEAD is served by GET').toBe(ROUTES[0]);
    expect(await table.match('GET', '/admin/login'), 'a method the path is not served with').toBeNull();
    expect(await table.match('GET', '/admin/nothing'), 'a path no route has').toBeNull();
    expect(table.allowOf('/admin/login')).toBe('POST');
    expect(table.allowOf('/content-manager/collection-types/x/1')).toBe('GET, HEAD, PUT');
    expect(table.allowOf('/admin/nothing')).toBeUndefined();
    // A parameter past the router's limit (100 characters): a 414, as Fastify's router answers.
    const long = `/content-manager/collection-types/api::article.article/${'a'.repeat(101)}`;
    await expect(table.match('DELETE', long)).rejects.toMatchObject({ statusCode: 414 });
    expect((await table.match('GET', long.slice(0, -1)))?.route).toBe(ROUTES[2]);
  });

  it('tries again after a failed build, and refuses a route outside its prefixes', async () => {
    let fail = true;
    const table = deferredTable({
      prefixes: ['/admin'],
      load: async () => {
        if (fail) throw new Error('not this time');
        return [ROUTES[0] as Route];
      },
    });
    await expect(table.match('GET', '/admin/init')).rejects.toThrow('not this time');
    fail = false;
    expect((await table.match('GET', '/admin/init'))?.route).toBe(ROUTES[0]);

    const outside = deferredTable({ prefixes: ['/admin'], load: async () => ROUTES });
    await expect(outside.match('GET', '/admin/init')).rejects.toThrow(
      'The deferred route /content-manager/collection-types/:model/:id is under none of the prefixes /admin',
    );
    const lookalike = deferredTable({
      prefixes: ['/admin'],
      load: async () => [{ method: 'GET', path: '/administrators', handle: answer('x') }],
    });
    await expect(lookalike.match('GET', '/administrators')).rejects.toThrow('under none of the prefixes');
  });
});
