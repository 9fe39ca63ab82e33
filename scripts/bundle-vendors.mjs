// The packages only some runs use, bundled out of dist/cairn.cjs into scripts of their own under
// dist/vendor/ (scripts/bundle-cli.mjs): a start reads, and V8 holds, 1.9 MB of source instead of
// 3.4 MB, each megabyte of it ~7 ms of a start on the machines measured (BENCHMARKS.md). A group is
// loaded, by Node's own `require`, the first time code needing one of its packages runs: the first
// GraphQL request, Redis connection, JWT, upload or UID, or a command that needs it.
//
// Cairn's modules import these packages as before; in the server's bundle each import resolves to
// a small module re-exporting what the group's script holds for it, names listed when building.
// Packages used at start stay in the bundle (test/production-install.test.ts checks both ways).
import { createRequire } from 'node:module';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

/** Each group's packages: one script per group, dist/vendor/<group>.cjs (graphql-jit must share graphql's copy). */
export const VENDORS = {
  graphql: ['graphql', 'graphql-jit'],
  ioredis: ['ioredis'],
  jose: ['jose'],
  'mime-types': ['mime-types'],
  'file-type': ['file-type'],
  slugify: ['@sindresorhus/slugify'],
  commands: ['cli-progress', 'cli-table3', 'tar-stream'],
  'pino-pretty': ['pino-pretty'],
};

const groupOf = new Map(Object.entries(VENDORS).flatMap(([group, names]) => names.map((name) => [name, group])));
const escape = (name) => name.replace(/[/@.:-]/g, '\\$&');
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Builds the group scripts with `options` (those of the server's script) and returns esbuild's
 * results and, per package, the names of its exports (read by loading each script once). A group's
 * script exports `packages`: each package's namespace as an ES module importing it sees it (a
 * CommonJS package's `module.exports` is its default export), hence entries written as .mjs files.
 */
export async function buildVendors(options) {
  const results = [];
  mkdirSync('dist/vendor', { recursive: true });
  for (const [group, names] of Object.entries(VENDORS)) {
    const entry = `dist/vendor/${group}.entry.mjs`;
    writeFileSync(
      entry,
      `${names.map((name, index) => `import * as p${index} from ${JSON.stringify(name)};`).join('\n')}\n` +
        `export const packages = { ${names.map((name, index) => `${JSON.stringify(name)}: p${index}`).join(', ')} };\n`,
    );
    try {
      results.push(await build({ ...options, entryPoints: { [`vendor/${group}`]: entry } }));
    } finally {
      rmSync(entry);
    }
  }
  const require = createRequire(import.meta.url);
  const exported = new Map();
  for (const [group, names] of Object.entries(VENDORS)) {
    const { packages } = require(resolve(`dist/vendor/${group}.cjs`));
    for (const name of names) exported.set(name, Object.keys(packages[name]));
  }
  return { results, exported };
}

/**
 * The esbuild plugin of the server's bundle: an import of a vendored package becomes a module
 * re-exporting, from the group's script, the names `exported` lists and the default export.
 */
export function vendorShims(exported) {
  return {
    name: 'cairn-vendor-shims',
    setup(bundle) {
      const names = [...groupOf.keys()];
      bundle.onResolve({ filter: new RegExp(`^(${names.map(escape).join('|')})$`) }, (args) => ({
        path: args.path,
        namespace: 'vendor-shim',
      }));
      bundle.onResolve({ filter: /^\.\/vendor\//, namespace: 'vendor-shim' }, (args) => ({
        path: args.path,
        external: true,
      }));
      bundle.onLoad({ filter: /.*/, namespace: 'vendor-shim' }, (args) => {
        const named = (exported.get(args.path) ?? []).filter((key) => key !== 'default' && IDENTIFIER.test(key));
        const lines = [
          `const vendored = require(${JSON.stringify(`./vendor/${groupOf.get(args.path)}.cjs`)}).packages[${JSON.stringify(args.path)}];`,
          'export default vendored.default;',
          ...named.map(
            (key, index) => `const v${index} = vendored[${JSON.stringify(key)}];\nexport { v${index} as ${key} };`,
          ),
        ];
        return { loader: 'js', contents: `${lines.join('\n')}\n` };
      });
    },
  };
}
