// Bundles the compiled server (dist/main.js and everything it imports, Fastify included) into one
// file, dist/cairn.mjs, which bin/cairn.js runs. One file instead of ~500 modules cuts module
// resolution and loading, the largest part of start-up. Native and optional drivers stay external
// (loaded from node_modules on demand). The webhook thread's program is a second
// bundle beside it, dist/webhook-thread.mjs (a worker thread loads it by that name).
// dist/bundle-meta.json is esbuild's metafile: what each bundle contains and still imports at run
// time (test/production-install.test.ts checks those are production dependencies).
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const result = await build({
  entryPoints: { cairn: 'dist/main.js', 'webhook-thread': 'dist/webhooks/webhook-thread.js' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // supports-color: an optional peer `debug` (under file-type) loads when installed; a production
  // install has none, and a development one must not bundle the dev tools' copy.
  external: ['better-sqlite3', 'pg', 'mysql2', 'jiti', 'bcrypt', 'nodemailer', 'sharp', 'supports-color'],
  // CommonJS dependencies inside an ESM bundle need a real `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as __cairnCreateRequire } from 'node:module'; const require = __cairnCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
});
writeFileSync('dist/bundle-meta.json', JSON.stringify(result.metafile));
