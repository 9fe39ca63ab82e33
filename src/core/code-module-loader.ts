import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { usablePrivateFolder } from './private-folder.js';
import { preloadTranspiler, transpileToCommonJs } from './transpile.js';

/** How the project's files are imported: `import(file)` gives the module's exports (`default` unwrapped). */
export interface CodeImporter {
  /**
   * `runAs`: the file this one should believe it is (`__dirname`/`__filename`), when it stands for
   * another (a TypeScript config file Strapi runs from `dist/config`).
   */
  import(file: string, runAs?: string): Promise<unknown>;
}

/** Node's CommonJS module internals the loader uses (public in practice: require hooks build on them). */
interface NodeModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
  require(id: string): unknown;
  _compile(code: string, filename: string): void;
}
type ModuleClass = (new (id: string, parent?: unknown) => NodeModule) & {
  _nodeModulePaths(dir: string): string[];
  prototype: NodeModule;
};

/** Bumped when what the cache holds changes shape. */
const CACHE_VERSION = '2';
const TRANSFORMED = /\.(ts|mts|cts|tsx|mjs)$/;
const ESM_SYNTAX = /^\s*(import\s*[\w{*'"]|export\s*[\w{*]|export default)|\bimport\.meta\b/m;
const RESOLVED_EXTENSIONS = ['', '.ts', '.js', '.cjs', '.mjs', '.mts', '.cts', '.json', '/index.ts', '/index.js'];

/**
 * Loads the project's server code the way Node loads CommonJS — each file compiled by Node itself —
 * with two additions: `require` of a name in `modules` (Cairn's stand-ins for Strapi's packages)
 * answers the stand-in, and the project's TypeScript and ES module files (and the project files
 * they import) are first turned into CommonJS (core/transpile.ts), whose output is kept in
 * `transpileCache` keyed by the file's content: a start whose files did not change transforms
 * nothing. Packages from `node_modules` are required as Node requires them, but for the files of
 * `packageRoots` (plugin packages), loaded as the project's are, so that their `require` of
 * Strapi's packages gets the stand-ins too. Each load has its own module table, so a reload sees
 * changed files.
 */
export function createCodeImporter(
  projectDir: string,
  modules: Readonly<Record<string, unknown>>,
  transpileCache: string | null,
  packageRoots: readonly string[] = [],
): CodeImporter {
  const NodeModuleClass = Module as unknown as ModuleClass;
  const root = projectDir.endsWith(sep) ? projectDir : projectDir + sep;
  const packages = packageRoots.map((dir) => (dir.endsWith(sep) ? dir : dir + sep));
  /** Whether a file is loaded here (the project's own, or a plugin package's): else Node requires it. */
  const ownFile = (file: string): boolean =>
    (file.startsWith(root) && !file.includes(`${sep}node_modules${sep}`)) ||
    packages.some((dir) => file.startsWith(dir) && !file.slice(dir.length).includes(`node_modules${sep}`));
  const cacheDir = transpileCache !== null && usablePrivateFolder(transpileCache) ? transpileCache : null;
  const table = new Map<string, NodeModule>();

  /** Where the compiled form of `source` is kept (null: no cache folder). */
  const keptAt = (file: string, source: string): string | null => {
    if (!cacheDir) return null;
    const key = createHash('sha256')
      .update(`${CACHE_VERSION}\0${extname(file)}\0${source}`)
      .digest('hex');
    return join(cacheDir, `${key}.cjs`);
  };
  const transform = (file: string, source: string): string => {
    const cached = keptAt(file, source);
    if (cached && existsSync(cached)) return readFileSync(cached, 'utf8');
    const code = transpileToCommonJs(source, file);
    if (cached) {
      mkdirSync(cacheDir as string, { recursive: true });
      writeFileSync(cached, code);
    }
    return code;
  };

  const load = (file: string, parent: NodeModule | undefined, runAs?: string): unknown => {
    const known = table.get(file);
    if (known) return known.exports;
    const source = readFileSync(file, 'utf8');
    const needed = TRANSFORMED.test(file) || ESM_SYNTAX.test(source);
    const compiled = needed ? transform(file, source) : source;
    const code = runAs === undefined ? compiled : believing(compiled, runAs);
    const module = new NodeModuleClass(file, parent);
    module.filename = file;
    module.paths = NodeModuleClass._nodeModulePaths(dirname(file));
    module.require = (id: string) => requireFrom(module, id);
    table.set(file, module);
    try {
      module._compile(code, file);
    } catch (error) {
      table.delete(file);
      throw error;
    }
    module.loaded = true;
    return module.exports;
  };

  const requireFrom = (module: NodeModule, id: string): unknown => {
    if (Object.prototype.hasOwnProperty.call(modules, id)) return modules[id];
    if (id.startsWith('.') || id.startsWith('/')) {
      const file = resolveFile(resolve(dirname(module.filename), id));
      if (file && ownFile(file) && !file.endsWith('.json')) return load(file, module);
    }
    return NodeModuleClass.prototype.require.call(module, id);
  };

  return {
    async import(file, runAs) {
      // A file to compile that is not kept: the compiler is loaded first (a kept one needs none).
      if (!table.has(file) && TRANSFORMED.test(file)) {
        const kept = keptAt(file, readFileSync(file, 'utf8'));
        if (kept === null || !existsSync(kept)) await preloadTranspiler();
      }
      return interopDefault(load(file, undefined, runAs));
    },
  };
}

/**
 * `code` with `__dirname` and `__filename` those of `runAs`, declared on its first line (after a
 * `"use strict"` directive, which must stay first) so line numbers stay the file's own.
 */
function believing(code: string, runAs: string): string {
  const names = `var __dirname = ${JSON.stringify(dirname(runAs))}, __filename = ${JSON.stringify(runAs)};`;
  const directive = /^\s*(["'])use strict\1;?/.exec(code);
  return directive ? `${directive[0]}${names}${code.slice(directive[0].length)}` : names + code;
}

/** The file `path` names, with the extensions Strapi projects leave out (TypeScript's included). */
function resolveFile(path: string): string | null {
  for (const suffix of RESOLVED_EXTENSIONS) {
    const candidate = path + suffix;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** A module's exports as Strapi reads them: an ES module's `default`, or CommonJS `module.exports`. */
function interopDefault(exported: unknown): unknown {
  if (exported && typeof exported === 'object' && (exported as { __esModule?: boolean }).__esModule)
    return 'default' in exported ? (exported as { default: unknown }).default : exported;
  return exported;
}
