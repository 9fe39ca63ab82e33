// Bundles the compiled server (dist/main.js and everything it imports, Fastify included) into one
// CommonJS script, dist/cairn.cjs, which bin/cairn.js loads with V8's code cache
// (src/cli/load-bundle.ts): one file instead of ~500 modules cuts module resolution and loading,
// and the cache the compiling. Node 20 caches no compiled code for ES modules, hence CommonJS;
// Cairn's modules only some runs need (GraphQL, the admin API, commands other than start) are in
// the file but run only when first imported; the packages only they use are scripts of their own
// (dist/vendor/, bundle-vendors.mjs).
// Native and optional drivers stay external (loaded from node_modules on demand), but for
// better-sqlite3's JavaScript: bundled, it is not ~15 CommonJS files to resolve and load at every
// start on SQLite; its compiled addon is loaded from node_modules (src/db/sqlite-database.ts). knex
// (project code's `strapi.db.connection`) is in no bundle: src/db/knex-connection.ts requires it from
// node_modules when project code first uses it. The
// webhook thread's program is a second script, dist/webhook-thread.cjs (a worker thread loads it
// by that name). What bin/cairn.js loads before the bundle (cli-command.cjs, young-generation.cjs, load-bundle.cjs)
// are small scripts of their own.
// dist/bundle-meta.json is esbuild's metafile of all these builds: what each bundle contains and still
// imports at run time (test/production-install.test.ts checks those are production dependencies).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { bundleStubs } from './bundle-stubs.mjs';
import { buildVendors, vendorShims } from './bundle-vendors.mjs';

// Earlier builds' files: the ES module bundles and their chunks, until the code cache came.
for (const old of [
  'dist/chunks',
  'dist/cairn.mjs',
  'dist/webhook-thread.mjs',
  'dist/young-generation.mjs',
  'dist/load-bundle.mjs',
])
  for (const suffix of ['', '.map', '.LEGAL.txt']) rmSync(`${old}${suffix}`, { recursive: true, force: true });

/** Options both builds share. */
const common = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  minifyWhitespace: true,
  minifySyntax: true,
  charset: 'ascii',
  legalComments: 'external',
  logLevel: 'warning',
  metafile: true,
};

/** Cairn's src/core/import-file.ts, imported by the scripts from dist/import-file.cjs beside them. */
const importFileOutside = {
  name: 'cairn-import-file',
  setup(bundle) {
    bundle.onResolve({ filter: /\/core\/import-file\.js$/ }, () => ({ path: './import-file.cjs', external: true }));
  },
};

/** Options of the two CommonJS scripts. */
const script = {
  ...common,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // supports-color: an optional peer `debug` (under file-type) loads when installed; a production
  // install has none, and a development one must not bundle the dev tools' copy.
  external: ['pg', 'mysql2', 'jiti', 'bcrypt', 'nodemailer', 'sharp', 'supports-color'],
  // `import()` of an external package becomes `require()` (each has a CommonJS entry): a node:vm
  // script has no loader for `import()`. A file known only at run time goes through
  // dist/import-file.cjs, compiled by Node's own loader (src/core/import-file.ts).
  supported: { 'dynamic-import': false },
  // The modules' own URL (they resolve packages and files beside them from it) is the script's.
  inject: ['scripts/bundle-import-meta-url.mjs'],
  define: { 'import.meta.url': 'importMetaUrl' },
  // Modules dependencies load for features Cairn does not use: left out, or loaded when used.
  plugins: [bundleStubs, importFileOutside],
};
// The server's script is the function Node would wrap a CommonJS module in, written out: V8
// compiles the file's text as it is read, where a wrapper added at run time made it copy the
// whole bundle into one string first (~10 ms of every start, load-bundle.ts).
// Packages only some runs use: scripts of their own, loaded when first needed (bundle-vendors.mjs).
rmSync('dist/vendor', { recursive: true, force: true });
const vendors = await buildVendors(script);
const server = await build({
  ...script,
  plugins: [...script.plugins, vendorShims(vendors.exported)],
  entryPoints: { cairn: 'dist/main.js' },
  banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
  footer: { js: '})' },
});
const thread = await build({ ...script, entryPoints: { 'webhook-thread': 'dist/webhooks/webhook-thread.js' } });
// Loaded by bin/cairn.js before the bundle (src/cli/cli-command.ts, young-generation.ts, load-bundle.ts).
const modules = await build({
  ...common,
  entryPoints: {
    'cli-command': 'dist/cli/cli-command.js',
    'import-file': 'dist/core/import-file.js',
    'young-generation': 'dist/cli/young-generation.js',
    'load-bundle': 'dist/cli/load-bundle.js',
  },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
});
const builds = [server, thread, modules, ...vendors.results];
const meta = {
  inputs: Object.assign({}, ...builds.map(({ metafile }) => metafile.inputs)),
  outputs: Object.assign({}, ...builds.map(({ metafile }) => metafile.outputs)),
};
writeFileSync('dist/bundle-meta.json', JSON.stringify(meta));

// V8 keeps each script's source in memory, in one byte per character only when every character
// is Latin-1: one `œ` left in a dependency's regular expression literal (esbuild escapes strings,
// not those) doubled the bundle's size in the heap. Escaped, it is the same expression.
// Then each script's last line is its content's hash: the code cache's key (load-bundle.ts).
for (const file of Object.keys(meta.outputs).filter((output) => /\.[cm]js$/.test(output))) {
  const source = readFileSync(file, 'utf8');
  const ascii = source.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const id =
    file === 'dist/cairn.cjs'
      ? `//# cairnBundleId=${createHash('sha256').update(ascii).digest('hex').slice(0, 32)}\n`
      : '';
  if (ascii !== source || id) writeFileSync(file, `${ascii}${id}`);
}
