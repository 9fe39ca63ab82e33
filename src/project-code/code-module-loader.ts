import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { usablePrivateFolder } from '../core/private-folder.js';

/** How the project's files are imported: `import(file)` gives the module's exports (`default` unwrapped). */
export interface CodeImporter {
  import(file: string): Promise<unknown>;
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
const CACHE_VERSION = '1';
const TRANSFORMED = /\.(ts|mts|cts|tsx|mjs)$/;
const ESM_SYNTAX = /^\s*(import\s*[\w{*'"]|export\s*[\w{*]|export default)|\bimport\.meta\b/m;
const RESOLVED_EXTENSIONS = ['', '.ts', '.js', '.cjs', '.mjs', '.mts', '.cts', '.json', '/index.ts', '/index.js'];

/**
 * Loads the project's server code the way Node loads CommonJS — each file compiled by Node itself —
 * with two additions: `require` of a name in `modules` (Cairn's stand-ins for Strapi's packages)
 * answers the stand-in, and the project's TypeScript and ES module files (and the project files
 * they import) are first turned into CommonJS by jiti's transform, whose output is kept in
 * `transpileCache` keyed by the file's content: a start whose files did not change loads neither
 * jiti nor Babel. Packages from `node_modules` are required as Node requires them. Each load has
 * its own module table, so a reload sees changed files.
 */
export function createCodeImporter(
  projectDir: string,
  modules: Readonly<Record<string, unknown>>,
  transpileCache: string | null,
): CodeImporter {
  const NodeModuleClass = Module as unknown as ModuleClass;
  const root = projectDir.endsWith(sep) ? projectDir : projectDir + sep;
  const cacheDir = transpileCache !== null && usablePrivateFolder(transpileCache) ? transpileCache : null;
  const table = new Map<string, NodeModule>();
  let transformer: ((source: string, file: string) => string) | null = null;

  const transform = (file: string, source: string): string => {
    const key = createHash('sha256')
      .update(`${CACHE_VERSION}\0${extname(file)}\0${source}`)
      .digest('hex');
    const cached = cacheDir ? join(cacheDir, `${key}.cjs`) : null;
    if (cached && existsSync(cached)) {
      const kept = readFileSync(cached, 'utf8');
      // A file that did not parse is never kept now; an older cache may hold one.
      const failed = transformError(kept, file);
      if (failed) throw failed;
      return kept;
    }
    transformer ??= loadTransformer(projectDir);
    const code = transformer(source, file);
    const failed = transformError(code, file);
    if (failed) throw failed;
    if (cached) {
      mkdirSync(cacheDir as string, { recursive: true });
      writeFileSync(cached, code);
    }
    return code;
  };

  const load = (file: string, parent: NodeModule | undefined): unknown => {
    const known = table.get(file);
    if (known) return known.exports;
    const source = readFileSync(file, 'utf8');
    const needed = TRANSFORMED.test(file) || ESM_SYNTAX.test(source);
    // On the first line, so line numbers stay the file's own.
    const code = needed ? `var jitiImport = (id) => Promise.resolve(require(id));${transform(file, source)}` : source;
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
      if (file && file.startsWith(root) && !file.includes(`${sep}node_modules${sep}`) && !file.endsWith('.json'))
        return load(file, module);
    }
    return NodeModuleClass.prototype.require.call(module, id);
  };

  return {
    import: async (file) => interopDefault(load(file, undefined)),
  };
}

/** The file `path` names, with the extensions Strapi projects leave out (TypeScript's included). */
function resolveFile(path: string): string | null {
  for (const suffix of RESOLVED_EXTENSIONS) {
    const candidate = path + suffix;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** jiti's transform (Babel: TypeScript types stripped, ES modules to CommonJS, lines kept), loaded on first need. */
function loadTransformer(projectDir: string): (source: string, file: string) => string {
  // The package name is built at run time so the bundler leaves jiti to node_modules.
  const jitiPackage = createRequire(import.meta.url)(['ji', 'ti'].join('')) as typeof import('jiti');
  const jiti = jitiPackage.createJiti(join(projectDir, 'package.json'), { fsCache: false, moduleCache: false });
  return (source, file) => jiti.transform({ source, filename: file, ts: /\.[cm]?tsx?$/.test(file), retainLines: true });
}

/**
 * What jiti's transform answers for a file that does not parse is a module exporting
 * `__JITI_ERROR__` (jiti's own import throws it): that error, thrown here, with `file` and the line
 * and column as its stack's frame; null for a transform that worked.
 *
 *   exports.__JITI_ERROR__ = {"filename":"/p/src/x.ts","line":3,"column":16,"code":"ParseError","message":"…"}
 *   → SyntaxError "ParseError: …", stack frame "at /p/src/x.ts:3:16"
 */
function transformError(code: string, file: string): SyntaxError | null {
  const prefix = 'exports.__JITI_ERROR__ = ';
  if (!code.startsWith(prefix)) return null;
  let info: { filename?: string; line?: number; column?: number; code?: string; message?: string } = {};
  try {
    info = JSON.parse(code.slice(prefix.length).trim().replace(/;$/, '')) as typeof info;
  } catch {
    // The error's shape changed: its message still says the file did not parse.
  }
  const error = new SyntaxError(`${info.code ?? 'ParseError'}: ${(info.message ?? 'the file does not parse').trim()}`);
  // The file being loaded (a kept transform may have been made for the same content elsewhere).
  if (info.line !== undefined)
    error.stack = `${error.name}: ${error.message}\n    at ${file}:${info.line}:${info.column ?? 0}`;
  return error;
}

/** A module's exports as Strapi reads them: an ES module's `default`, or CommonJS `module.exports`. */
function interopDefault(exported: unknown): unknown {
  if (exported && typeof exported === 'object' && (exported as { __esModule?: boolean }).__esModule)
    return 'default' in exported ? (exported as { default: unknown }).default : exported;
  return exported;
}
