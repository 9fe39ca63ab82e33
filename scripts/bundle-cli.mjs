// Bundles the compiled server (dist/main.js and everything it imports, Fastify included) into
// dist/cairn.mjs, which bin/cairn.js runs, and the chunks it loads (dist/chunks/): a few files
// instead of ~500 modules cuts module resolution and loading, the largest part of start-up.
// Native and optional drivers stay external (loaded from node_modules on demand), but for
// better-sqlite3's JavaScript: bundled, it is not ~15 CommonJS files to resolve and load at every
// start on SQLite; its compiled addon is loaded from node_modules (src/db/sqlite-database.ts). The webhook
// thread's program is a second entry, dist/webhook-thread.mjs (a worker thread loads it by that
// name), sharing chunks with the first.
// dist/bundle-meta.json is esbuild's metafile: what each bundle contains and still imports at run
// time (test/production-install.test.ts checks those are production dependencies).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { bundleStubs } from './bundle-stubs.mjs';

// Chunks are named by their content's hash: an earlier build's would stay beside the new ones.
rmSync('dist/chunks', { recursive: true, force: true });

const result = await build({
  // bin/cairn.js loads young-generation.mjs before cairn.mjs for a server (src/cli/young-generation.ts).
  entryPoints: {
    cairn: 'dist/main.js',
    'webhook-thread': 'dist/webhooks/webhook-thread.js',
    'young-generation': 'dist/cli/young-generation.js',
  },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  // Modules only some runs need (GraphQL, OpenAPI, commands other than start) are chunks of
  // their own, loaded by their dynamic import(): a server parses and holds only what it uses.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // supports-color: an optional peer `debug` (under file-type) loads when installed; a production
  // install has none, and a development one must not bundle the dev tools' copy.
  external: ['pg', 'mysql2', 'jiti', 'bcrypt', 'nodemailer', 'sharp', 'supports-color'],
  // CommonJS dependencies inside an ESM bundle need a real `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as __cairnCreateRequire } from 'node:module'; const require = __cairnCreateRequire(import.meta.url);",
  },
  minifyWhitespace: true,
  minifySyntax: true,
  charset: 'ascii',
  legalComments: 'external',
  logLevel: 'warning',
  metafile: true,
  // Modules dependencies load for features Cairn does not use: left out, or loaded when used.
  plugins: [bundleStubs],
});
writeFileSync('dist/bundle-meta.json', JSON.stringify(result.metafile));

// V8 keeps each script's source in memory, in one byte per character only when every character
// is Latin-1: one `œ` left in a dependency's regular expression literal (esbuild escapes strings,
// not those) doubled the bundle's 3.4 MB in the heap. Escaped, it is the same expression.
for (const file of Object.keys(result.metafile.outputs).filter((output) => output.endsWith('.mjs'))) {
  const source = readFileSync(file, 'utf8');
  const ascii = source.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== source) writeFileSync(file, ascii);
}
