import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM } from './support/admin-browser.js';
import { pluginsWithDocumentation, type OpenApiJson } from './support/openapi.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * When and where the documentation plugin's routes answer (issue 20): only for a project with
 * @strapi/plugin-documentation (package.json, or a config/plugins entry not turned off), at
 * `x-strapi-config.path`, describing the plugins it names; the Swagger UI page and its files come
 * from this server (swagger-ui-dist, no CDN), so the default content security policy lets them run.
 */

const WITH_PLUGIN = JSON.stringify({ name: 'blog', dependencies: { '@strapi/plugin-documentation': '5.54.0' } });
const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

describe('the documentation plugin', () => {
  const servers: TestServer[] = [];
  const start = async (files: Record<string, string>) => {
    const server = await startTestServer({ files });
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('is not served for a project without it', async () => {
    const server = await start({});
    for (const path of ['/documentation', '/documentation/openapi.json', '/documentation/swagger-ui-bundle.js']) {
      const response = await server.request('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.json.error.name).toBe('NotFoundError');
    }
  });

  it("is served when the project's package.json depends on it, titled with the package's name", async () => {
    const server = await start({ 'package.json': WITH_PLUGIN });
    const response = await server.request('GET', '/documentation/openapi.json');
    expect(response.status).toBe(200);
    expect(response.json.info).toEqual({ title: 'blog', version: '1.0.0' });
  });

  it('is not served with enabled: false, even when installed', async () => {
    const server = await start({
      'package.json': WITH_PLUGIN,
      'config/plugins.js': pluginsWithDocumentation({ enabled: false }),
    });
    expect((await server.request('GET', '/documentation/openapi.json')).status).toBe(404);
  });

  it('answers at x-strapi-config.path, describing the plugins it lists, with the servers given', async () => {
    const server = await start({
      'config/plugins.js': pluginsWithDocumentation({
        config: {
          servers: [{ url: 'https://cms.example.com/api', description: 'Production' }],
          externalDocs: { url: 'https://docs.example.com' },
          'x-strapi-config': { path: '/docs', plugins: ['upload', 'email'] },
        },
      }),
    });
    expect((await server.request('GET', '/documentation/openapi.json')).status).toBe(404);
    const response = await server.request('GET', '/docs/openapi.json');
    expect(response.status).toBe(200);
    const document = response.json as OpenApiJson;
    expect(document.servers).toEqual([{ url: 'https://cms.example.com/api', description: 'Production' }]);
    expect(document.externalDocs).toEqual({ url: 'https://docs.example.com' });
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/articles', '/upload', '/upload/files/{id}']));
    expect(
      Object.keys(document.paths).filter((path) => /^\/(auth|users|users-permissions|connect|i18n)(\/|$)/.test(path)),
    ).toEqual([]);
    expect(document.components.schemas).not.toHaveProperty('UsersPermissionsUser');
    expect((await server.request('GET', '/docs')).status).toBe(200);
  });

  it('a malformed setting stops the start, naming it', async () => {
    await expect(
      start({ 'config/plugins.js': pluginsWithDocumentation({ config: { servers: 'here' } }) }),
    ).rejects.toThrow('config/plugins: documentation "servers" must be an array of { url, description? }');
    await expect(
      start({ 'config/plugins.js': pluginsWithDocumentation({ config: { 'x-strapi-config': { path: 'docs' } } }) }),
    ).rejects.toThrow('"x-strapi-config.path" must be a path such as "/documentation", got "docs"');
  });

  describe('the Swagger UI page', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await start({
        'config/plugins.js': pluginsWithDocumentation({ config: { info: { title: 'Blog <API>' } } }),
      });
    });

    it("loads only this server's files, which the default content security policy allows", async () => {
      const page = await server.request('GET', '/documentation', { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.text).toContain('<title>Blog &#60;API&#62; – API documentation</title>');
      // No inline script: `script-src 'self'` would block it.
      expect(page.text.replace(/<script src="[^"]+"><\/script>/g, '')).not.toContain('<script');
      const loaded = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
      expect(loaded).toEqual([
        '/documentation/swagger-ui.css',
        '/documentation/favicon-32x32.png',
        '/documentation/swagger-ui-bundle.js',
        '/documentation/swagger-initializer.js',
      ]);
      const types: Record<string, string> = {
        'swagger-ui.css': 'text/css; charset=utf-8',
        'favicon-32x32.png': 'image/png',
        'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
      };
      for (const [file, type] of Object.entries(types)) {
        const response = await server.request('GET', `/documentation/${file}`);
        expect(response.status, file).toBe(200);
        expect(response.headers['content-type']).toBe(type);
        expect(response.bytes.equals(readFileSync(join(SWAGGER_UI, file))), file).toBe(true);
      }
      const initializer = await server.request('GET', '/documentation/swagger-initializer.js');
      expect(initializer.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(initializer.text).toContain('url: "/documentation/openapi.json"');
    });

    it.skipIf(!existsSync(CHROMIUM))(
      'shows the operations in a browser',
      async () => {
        const address = await server.app.server.listen({ host: '127.0.0.1', port: 0 });
        const { chromium } = await import('playwright-core');
        const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
        try {
          const page = await browser.newPage();
          const problems: string[] = [];
          page.on('console', (message) => {
            if (message.type() === 'error') problems.push(message.text());
          });
          page.on('pageerror', (error) => problems.push(error.message));
          await page.goto(`${address}/documentation`);
          await page
            .locator('.opblock-summary-path[data-path="/articles/{documentId}"]')
            .first()
            .waitFor({ timeout: 60_000 });
          expect(await page.locator('.opblock').count()).toBeGreaterThan(40);
          expect(await page.locator('.info .title').innerText()).toContain('Blog <API>');
          // Try it out on GET /articles with what the page fills in: the server answers 200.
          const list = page.locator('#operations-Article-listArticles');
          await list.locator('.opblock-summary').click();
          await list.locator('.try-out__btn').click();
          const [answer] = await Promise.all([
            page.waitForResponse((response) => new URL(response.url()).pathname === '/api/articles'),
            list.locator('.execute').click(),
          ]);
          expect(answer.status()).toBe(200);
          expect(new URL(answer.url()).search).toBe(
            '?pagination%5Bpage%5D=1&pagination%5BpageSize%5D=10&status=published',
          );
          expect(problems).toEqual([]);
        } finally {
          await browser.close();
        }
      },
      120_000,
    );
  });
});
