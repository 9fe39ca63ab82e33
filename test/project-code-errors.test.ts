import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CODE_LANGUAGES, shopCodeDir, startShopServer, type ShopServer } from './support/project-code.js';

/*
 * Issue 37, point 7, through HTTP on the shop-code fixtures: @strapi/utils errors thrown by a
 * project's controller answer as Strapi 5 does (test/fixtures/projects/shop-code-*, `shop.fail`;
 * recorded Strapi answers: the shared conformance scenario 23-project-code); any other error is a
 * 500 in Strapi's envelope, logged with the project file and line, and the server keeps serving.
 * Start-up failures (syntax error, throwing register/bootstrap): project-code-start.test.ts.
 */

for (const database of inject('databases'))
  for (const language of CODE_LANGUAGES)
    describe(`[${database}/${language}] project code: errors thrown by project code`, () => {
      let server: ShopServer;
      beforeAll(async () => {
        server = await startShopServer(database, language);
      });
      afterAll(() => server?.close());

      it.each([
        ['application', 400, 'ApplicationError', 'The shop is closed', { reopensAt: '09:00' }],
        [
          'validation',
          400,
          'ValidationError',
          'Invalid order',
          { errors: [{ path: ['quantity'], message: 'quantity must be positive', name: 'ValidationError' }] },
        ],
        ['not-found', 404, 'NotFoundError', 'Order not found', {}],
        ['payload-too-large', 413, 'PayloadTooLargeError', 'Order too big', {}],
        ['rate-limit', 429, 'RateLimitError', 'Slow down', {}],
        ['policy', 403, 'PolicyError', 'Not today', { day: 'sunday' }],
        ['not-implemented', 501, 'NotImplementedError', 'Coming soon', {}],
      ])(
        'a thrown %s error answers %i with its name, message and details',
        async (kind, status, name, message, details) => {
          const response = await server.request('GET', `/api/shop/fail/${kind}`);
          expect(response.status).toBe(status);
          expect(response.json).toEqual({ data: null, error: { status, name, message, details } });
          // thrown through the global middleware, as in Strapi: its header is not set
          expect(response.headers['x-shop-version']).toBeUndefined();
        },
      );

      it.each([
        ['forbidden', 403, 'ForbiddenError', 'Forbidden'],
        ['unauthorized', 401, 'UnauthorizedError', 'Unauthorized'],
      ])(
        'a thrown %s error answers a bare %i, its message dropped, the global middleware still run',
        async (kind, status, name, message) => {
          const response = await server.request('GET', `/api/shop/fail/${kind}`);
          expect(response.status).toBe(status);
          expect(response.json).toEqual({ data: null, error: { status, name, message, details: {} } });
          expect(response.headers['x-shop-version']).toBe('2026.12');
        },
      );

      it('any other error is a 500 in Strapi’s envelope, logged with the project file and line, and the server keeps serving', async () => {
        const file = `src/api/shop/controllers/shop.${language}`;
        const line =
          readFileSync(join(shopCodeDir(language), file), 'utf8')
            .split('\n')
            .findIndex((text) => text.includes('return order.total;')) + 1;
        expect(line).toBeGreaterThan(0);
        const before = server.logs.length;
        const crash = await server.request('GET', '/api/shop/fail/crash');
        expect(crash.status).toBe(500);
        expect(crash.json).toEqual({
          data: null,
          error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' },
        });
        expect(crash.text).not.toContain('total');
        const errors = server.logs
          .slice(before)
          .map((entry) => JSON.parse(entry))
          .filter((entry) => entry.level === 50);
        expect(errors).toHaveLength(1);
        expect(errors[0].msg).toMatch(
          new RegExp(`^GET /api/shop/fail/crash failed at ${file.replace(/\./g, '\\.')}:${line}:\\d+$`),
        );
        expect(errors[0].err.message).toBe("Cannot read properties of undefined (reading 'total')");
        // still serving: project routes and Cairn's own
        expect((await server.request('GET', '/api/ping')).json).toMatchObject({ pong: true });
        expect((await server.request('GET', '/api/tags')).status).toBe(200);
        expect((await server.request('GET', '/api/shop/fail/crash')).status).toBe(500);
        expect((await server.request('GET', '/api/ping')).status).toBe(200);
      });
    });
