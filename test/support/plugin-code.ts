import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { DatabaseKind } from './databases.js';
import { fixtureFiles, pluginCodeDir, type CodeLanguage } from './project-code.js';
import { EXAMPLE_PROJECT, startTestServer, type TestServer } from './test-server.js';

/**
 * A plugin package as npm installs one into the project: `cairn-plugin-hello` (Strapi plugin
 * `hello`), listed in the project's package.json dependencies, with its server part built to
 * CommonJS (`exports['./strapi-server'].require`). It requires `@strapi/utils` and
 * `@strapi/strapi` (no Strapi is installed: Cairn's stand-ins answer) and reads the global
 * `strapi` while it loads. Its routes are the array form: admin routes under `/hello`, here public.
 */
export function helloPluginPackage(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(EXAMPLE_PROJECT, 'package.json'), 'utf8')) as Record<string, unknown>;
  return {
    'package.json': JSON.stringify({ ...manifest, dependencies: { 'cairn-plugin-hello': '1.0.0' } }, null, 2),
    'node_modules/cairn-plugin-hello/package.json': JSON.stringify({
      name: 'cairn-plugin-hello',
      version: '1.0.0',
      strapi: { kind: 'plugin', name: 'hello', displayName: 'Hello' },
      exports: { './package.json': './package.json', './strapi-server': { require: './dist/server/index.js' } },
    }),
    'node_modules/cairn-plugin-hello/dist/server/index.js': `'use strict';
const { errors } = require('@strapi/utils');
const { factories } = require('@strapi/strapi');
const { greet } = require('./greet');

// Read while the file loads: the global strapi exists before any plugin file does.
const seenAtLoad = { limit: strapi.config.get('api.rest.defaultLimit'), root: typeof strapi.dirs.app.root };

module.exports = () => ({
  routes: [
    { method: 'GET', path: '/ping', handler: 'hello.ping', config: { auth: false } },
    { method: 'GET', path: '/refuse', handler: 'hello.refuse', config: { auth: false } },
  ],
  controllers: {
    hello: {
      ping(ctx) {
        ctx.body = { greeting: greet(), seenAtLoad, sameStrapi: strapi === global.strapi, factories: typeof factories.createCoreController };
      },
      refuse() {
        throw new errors.ApplicationError('hello refuses', { why: 'a test' });
      },
    },
  },
});
`,
    'node_modules/cairn-plugin-hello/dist/server/greet.js':
      "'use strict';\nexports.greet = () => 'hello from a package';\n",
  };
}

/** A test server on examples/blog with the `language` plugin fixture and the hello package, and its log lines. */
export async function startPluginServer(
  database: DatabaseKind,
  language: CodeLanguage,
): Promise<TestServer & { readonly logs: string[] }> {
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const server = await startTestServer({
    database,
    logger,
    files: { ...fixtureFiles(pluginCodeDir(language)), ...helloPluginPackage() },
  });
  return Object.assign(server, { logs });
}
