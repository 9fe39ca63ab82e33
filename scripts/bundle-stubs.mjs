// What scripts/bundle-cli.mjs leaves out of, or defers in, the server's bundle: modules its
// dependencies import at load time for features Cairn does not use. Each is replaced, for that
// dependency only, by a small stub; the same module imported from anywhere else (fast-json-stringify
// by graphql-jit, say) is bundled as usual. test/production-install.test.ts checks they stay out
// of what a server loads at start.

import { fileURLToPath } from 'node:url';

/**
 * Replaced by a stub that throws if it is ever called: a server neither parses their source at
 * every start nor holds it (~0.5 MB with what only they import: Ajv, ajv-formats, fast-uri,
 * fast-json-stringify's compiler).
 * - Fastify's Ajv and fast-json-stringify compilers: Cairn's routes declare no JSON schemas and
 *   src/http/create-server.ts passes its own compilers factory, so Fastify never requires them.
 * - light-my-request: Fastify requires it for `inject()`, which Cairn never calls.
 * - glob: @fastify/static lists its root folder with it only when `wildcard: false`; Cairn's
 *   public files use `wildcard: true`, the admin panel `serve: false`.
 * Keyed by module: the package whose `require` is stubbed, and what the stub exports.
 */
const LEFT_OUT = {
  '@fastify/ajv-compiler': { importer: 'fastify', exports: 'leftOut' },
  '@fastify/fast-json-stringify-compiler': { importer: 'fastify', exports: 'leftOut' },
  'light-my-request': { importer: 'fastify', exports: 'leftOut' },
  glob: { importer: '@fastify/static', exports: '{ glob: leftOut }' },
};

/**
 * Node built-ins that Fastify requires when it loads but uses only for an HTTPS or HTTP/2 server:
 * replaced by a stub that requires the real module at the first use of one of its properties.
 * Loading them costs ~10 ms of every start (tls, https, http2 and their internals).
 */
const DEFERRED = {
  'node:https': { importer: 'fastify' },
  'node:http2': { importer: 'fastify' },
};

/**
 * Replaced by a module of this folder doing what the importer needs of it, and loading the real
 * one for anything else (semver-for-fastify.cjs: a plugin's `5.x` range checked without building
 * semver's ~40 regular expressions at every start).
 */
const NARROWED = {
  semver: { importer: 'fastify', file: 'semver-for-fastify.cjs' },
};

const escape = (name) => name.replace(/[/@.:-]/g, '\\$&');
const stubs = { ...LEFT_OUT, ...DEFERRED, ...NARROWED };

/** The esbuild plugin applying LEFT_OUT, DEFERRED and NARROWED. */
export const bundleStubs = {
  name: 'cairn-bundle-stubs',
  setup(bundle) {
    bundle.onResolve({ filter: new RegExp(`^(${Object.keys(stubs).map(escape).join('|')})$`) }, (args) => {
      if (!args.importer.includes(`/node_modules/${stubs[args.path].importer}/`)) return undefined;
      if (args.path in NARROWED) return { path: fileURLToPath(new URL(NARROWED[args.path].file, import.meta.url)) };
      return { path: args.path, namespace: args.path in LEFT_OUT ? 'left-out' : 'deferred' };
    });
    bundle.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      loader: 'js',
      contents: `const leftOut = () => { throw new Error(${JSON.stringify(
        `${args.path} is left out of Cairn's bundle (scripts/bundle-stubs.mjs): Cairn does not use it`,
      )}); };\nmodule.exports = ${LEFT_OUT[args.path].exports};\n`,
    }));
    bundle.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => ({
      loader: 'js',
      contents: `let real;\nconst load = () => (real ??= require(${JSON.stringify(args.path)}));\nmodule.exports = new Proxy({}, {\n  get: (_, key) => load()[key],\n  has: (_, key) => key in load(),\n  ownKeys: () => Reflect.ownKeys(load()),\n  getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(load(), key),\n});\n`,
    }));
  },
};
