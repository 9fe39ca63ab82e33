import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { compileCacheFolder, usablePrivateFolder } from '../core/private-folder.js';

/*
 * Loads Cairn's bundle (dist/cairn.cjs, one CommonJS script) with V8's code cache. Node 20 keeps
 * no compiled code between runs for ES modules: every start parsed and compiled the bundle anew
 * (~35–40 ms of a ~300 ms start, bench/cold-start.ts). A script compiled through `vm.Script` can
 * be given the bytecode a previous run saved (`cachedData`) and skip that work, the functions the
 * previous run had compiled by then included.
 *
 * The cache is one file per bundle build, Node version and set of V8 flags (V8 refuses a cache
 * made under other flags, and checks only the source's length: the bundle's own content hash, which
 * scripts/bundle-cli.mjs writes on its last line, tells builds apart). It is written once, by the
 * first run that had none or had one V8 refused: a server once it has started (main.ts's
 * `afterStart`), another command before it exits. Where to keep it: `CAIRN_COMPILE_CACHE` (a
 * folder, or `off`), else a folder of this user's in the system's temporary folder. A folder
 * another user could write to is not used: a cache is code this process would run.
 *
 * With `--enable-source-maps`, Node's own module loader compiles the bundle instead, without a
 * cache: only then do stack traces point into the TypeScript sources.
 */

/** The bundle's last line, written by scripts/bundle-cli.mjs: `//# cairnBundleId=<hex>`. */
const BUNDLE_ID = /\/\/# cairnBundleId=([0-9a-f]{8,64})\s*$/;
/** Caches kept in the folder (older ones, of other builds or flags, are removed when one is written). */
const KEPT_CACHES = 8;
const CACHE_SUFFIX = '.v8cache';
const PARTIAL_SUFFIX = '.partial';

/** A loaded bundle: its exports, and the way to save what V8 has compiled of it so far. */
export interface LoadedBundle {
  readonly exports: Record<string, unknown>;
  /** Whether `saveCompileCache` will write one (this run had no usable cache). */
  readonly savesCompileCache: boolean;
  /**
   * Saves V8's code cache of the bundle (what has been compiled of it so far) when this run had
   * no usable one; otherwise, and from the second call on, does nothing. Never throws: a cache that
   * cannot be written is simply not there next time.
   */
  saveCompileCache(): void;
}

/** The function a bundle's text is (its module's code in the wrapper Node gives a CommonJS module), called as Node would. */
type ModuleFunction = (
  exports: Record<string, unknown>,
  require: NodeJS.Require,
  module: { exports: Record<string, unknown> },
  filename: string,
  dirname: string,
) => void;

/**
 * Loads and runs the bundle `file` with its code cache when there is one. The file's text is a
 * function expression, `(function (exports, require, module, __filename, __dirname) {…})`
 * (scripts/bundle-cli.mjs). `variant` names the run (bin/cairn.js: `server`, whose young
 * generation is held before the bundle loads, young-generation.ts, or `command <name>`): part of
 * the cache's key beside Node's own flags, since each run compiles different functions and a
 * server's V8 flags differ.
 */
export function loadBundle(file: string, options: { variant: string; env?: NodeJS.ProcessEnv }): LoadedBundle {
  const source = readFileSync(file, 'latin1');
  if (process.sourceMapsEnabled)
    return { exports: runModule(file, compiledByNode(file, source)), savesCompileCache: false, saveCompileCache() {} };
  const cacheFile = cacheFileFor(file, source, options.variant, options.env ?? process.env);
  const cachedData = cacheFile === null ? undefined : readCache(cacheFile);
  const script = new Script(source, { filename: file, cachedData });
  let unsaved = cacheFile !== null && (cachedData === undefined || script.cachedDataRejected === true);
  return {
    exports: runModule(file, script.runInThisContext() as ModuleFunction),
    savesCompileCache: unsaved,
    saveCompileCache() {
      if (!unsaved || cacheFile === null) return;
      unsaved = false;
      try {
        writeCache(cacheFile, script.createCachedData());
      } catch {
        // A full disk or a folder made read-only: the next run compiles, as without a cache.
      }
    },
  };
}

/** Calls a bundle's module function as Node calls a CommonJS module's; returns its exports. */
function runModule(file: string, moduleFunction: ModuleFunction): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  moduleFunction(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/**
 * The bundle's function compiled by Node's own module loader, which maps stack traces through the
 * bundle's source map when source maps are on (a `node:vm` script's are not).
 */
function compiledByNode(file: string, source: string): ModuleFunction {
  const holder = new Module(file) as Module & { _compile(content: string, filename: string): unknown };
  holder.filename = file;
  holder._compile(`module.exports = ${source}`, file);
  return holder.exports as ModuleFunction;
}

/** The cache's path for this bundle, Node and flags; null when caching is off or the folder is not safe to use. */
function cacheFileFor(file: string, source: string, variant: string, env: NodeJS.ProcessEnv): string | null {
  const folder = compileCacheFolder(env, 'v8');
  const bundleId = BUNDLE_ID.exec(source.slice(-200))?.[1];
  if (folder === null || bundleId === undefined || !usablePrivateFolder(folder)) return null;
  // The file's size and time too: a bundle edited in place keeps the id its build wrote.
  const { size, mtimeMs } = statSync(file);
  const flags = createHash('sha256')
    .update(JSON.stringify([variant, process.execArgv, env.NODE_OPTIONS ?? '', size, mtimeMs]))
    .digest('hex')
    .slice(0, 16);
  return join(folder, `${bundleId}-node${process.version}-${process.arch}-${flags}${CACHE_SUFFIX}`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache whole or not at all: into a file of its own (runs starting together, on one
 * machine or sharing the folder from several, each write their own), flushed, then renamed in
 * place. V8 checks a cache's header, not its content, so a cache is never left half-written. Then
 * the folder is trimmed: the newest caches are kept, and a partial file a run killed while writing
 * left behind goes after a minute.
 */
function writeCache(file: string, data: Buffer): void {
  const partial = `${file}.${randomUUID()}${PARTIAL_SUFFIX}`;
  const descriptor = openSync(partial, 'wx', 0o600);
  try {
    for (let written = 0; written < data.length;)
      written += writeSync(descriptor, data, written, data.length - written);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  renameSync(partial, file);
  const folder = dirname(file);
  const entries = readdirSync(folder).map((name) => ({
    name,
    path: join(folder, name),
    modified: lstatSync(join(folder, name)).mtimeMs,
  }));
  const caches = entries.filter(({ name }) => name.endsWith(CACHE_SUFFIX)).sort((a, b) => b.modified - a.modified);
  const abandoned = entries.filter(
    ({ name, modified }) => name.endsWith(PARTIAL_SUFFIX) && Date.now() - modified > 60_000,
  );
  for (const old of [...caches.slice(KEPT_CACHES), ...abandoned]) rmSync(old.path, { force: true });
}
