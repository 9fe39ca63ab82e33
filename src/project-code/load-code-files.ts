import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { ProjectError } from '../core/errors.js';
import { isGeneratedBoilerplate } from '../project/generated-boilerplate.js';
import type { CodeImporter } from '../core/code-module-loader.js';
import { CORE_FACTORY } from './strapi-packages.js';
import { projectFrame } from './unoffered-member.js';

/** One loaded project file: where it is (from the project folder) and what it exports (default unwrapped). */
export interface CodeFile {
  readonly path: string;
  readonly exports: unknown;
}

/** The files of one `src/api/<name>/` folder, by kind; each map is keyed by file name without extension. */
export interface ApiCode {
  readonly controllers: ReadonlyMap<string, CodeFile>;
  readonly services: ReadonlyMap<string, CodeFile>;
  /** In file-name order, as Strapi registers them (a custom file named `01-…` comes before the core router). */
  readonly routes: readonly CodeFile[];
  readonly policies: ReadonlyMap<string, CodeFile>;
  readonly middlewares: ReadonlyMap<string, CodeFile>;
  /** `content-types/<name>/lifecycles.*`, by content type name. */
  readonly lifecycles: ReadonlyMap<string, CodeFile>;
}

/** A project's server code as Strapi loads it, not yet run: modules only. */
export interface CodeFiles {
  /** `src/index.{js,ts}`: `{ register, bootstrap, destroy }`; null when absent or generated. */
  readonly index: CodeFile | null;
  readonly apis: ReadonlyMap<string, ApiCode>;
  /** `src/policies/*` (`global::<name>`). */
  readonly policies: ReadonlyMap<string, CodeFile>;
  /** `src/middlewares/*` (`global::<name>`). */
  readonly middlewares: ReadonlyMap<string, CodeFile>;
  /** Generated files left unloaded (Cairn's core objects do what they would). */
  readonly generated: readonly string[];
}

const CODE = /\.(js|cjs|mjs|ts|cts|mts)$/;
const SKIPPED = /\.d\.[cm]?ts$|\.(test|spec)\.[cm]?[jt]s$/;
const KINDS = ['controllers', 'services', 'routes', 'policies', 'middlewares'] as const;

/**
 * Finds and imports the project's server code: `src/index`, `src/api/<name>/{controllers,
 * services,routes,policies,middlewares}/*`, `src/policies/*`, `src/middlewares/*`. Files that
 * Strapi's generators write unchanged are not imported (listed in `generated`). A file that does
 * not compile or throws while loading stops the start with one message naming it and the line.
 */
export async function loadCodeFiles(projectDir: string, createImporter: () => CodeImporter): Promise<CodeFiles> {
  const generated: string[] = [];
  let importer: CodeImporter | null = null;
  const load = async (file: string): Promise<CodeFile | null> => {
    const path = relative(projectDir, file);
    const source = readFileSync(file, 'utf8');
    if (isGeneratedBoilerplate(source)) {
      generated.push(path);
      // A generated router still says which type's core routes are served.
      const router = /createCoreRouter\(\s*['"]([^'"]+)['"]\s*\)/.exec(source)?.[1];
      return router ? { path, exports: generatedRouter(router) } : null;
    }
    try {
      importer ??= createImporter();
      return { path, exports: await importer.import(file) };
    } catch (error) {
      throw loadError(projectDir, path, error);
    }
  };
  const byName = async (dir: string): Promise<Map<string, CodeFile>> => {
    const found = new Map<string, CodeFile>();
    for (const file of codeFilesIn(dir)) {
      const loaded = await load(file);
      if (loaded) found.set(stem(file), loaded);
    }
    return found;
  };
  const src = join(projectDir, 'src');
  const indexFile = codeFilesIn(src).find((file) => stem(file) === 'index');
  const apis = new Map<string, ApiCode>();
  for (const api of subfolders(join(src, 'api'))) {
    const dir = join(src, 'api', api);
    const [controllers, services, routeFiles, policies, middlewares] = await Promise.all(
      KINDS.map((kind) => byName(join(dir, kind))),
    );
    const lifecycles = new Map<string, CodeFile>();
    for (const name of subfolders(join(dir, 'content-types'))) {
      const file = codeFilesIn(join(dir, 'content-types', name)).find((candidate) => stem(candidate) === 'lifecycles');
      const loaded = file ? await load(file) : null;
      if (loaded) lifecycles.set(name, loaded);
    }
    apis.set(api, {
      lifecycles,
      controllers: controllers as Map<string, CodeFile>,
      services: services as Map<string, CodeFile>,
      routes: [...(routeFiles as Map<string, CodeFile>).values()],
      policies: policies as Map<string, CodeFile>,
      middlewares: middlewares as Map<string, CodeFile>,
    });
  }
  return {
    index: indexFile ? await load(indexFile) : null,
    apis,
    policies: await byName(join(src, 'policies')),
    middlewares: await byName(join(src, 'middlewares')),
    generated,
  };
}

/** What `factories.createCoreRouter(uid)` exports, for a generated router file left unloaded. */
function generatedRouter(uid: string): object {
  return { [CORE_FACTORY]: { kind: 'router', uid, config: {} }, type: 'content-api', prefix: undefined };
}

/** The code files directly in `dir`, sorted by name; one per name (`x.ts` over `x.js`, as a TS build would). */
function codeFilesIn(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const byStem = new Map<string, string>();
  for (const entry of readdirSync(dir).sort()) {
    if (!CODE.test(entry) || SKIPPED.test(entry)) continue;
    const file = join(dir, entry);
    if (!statSync(file).isFile()) continue;
    const name = stem(file);
    const kept = byStem.get(name);
    if (!kept || extname(file).includes('ts')) byStem.set(name, file);
  }
  return [...byStem.values()];
}

function subfolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((entry) => statSync(join(dir, entry)).isDirectory())
    .sort();
}

function stem(file: string): string {
  return basename(file).replace(CODE, '');
}

/** One message for a file that does not load: the file, the line when known, and the cause. */
export function loadError(projectDir: string, path: string, error: unknown): ProjectError {
  const raw = error instanceof Error ? error.message : String(error);
  // A compile error puts the site on a line of its own, as an absolute path: one line, from the project.
  const message = raw
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => (/^\/\S+:\d+:\d+$/.test(line) ? `(at ${projectFrame(`x\n${line}`, projectDir) ?? line})` : line))
    .join(' ');
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const site = projectFrame(stack, projectDir) ?? compileSite(stack, projectDir);
  const where = site && !message.includes(path) ? ` (at ${site})` : '';
  return new ProjectError(`${path}: could not load this file: ${message}${where}`);
}

/**
 * Where Node's compiler stopped on a file that does not parse: its SyntaxError's stack starts with
 * the file and the line (no column), `/p/src/x.js:3`; as `src/x.js:3`, or null.
 */
function compileSite(stack: string, projectDir: string): string | null {
  const first = /^(.+):(\d+)$/.exec(stack.split('\n')[0] ?? '');
  if (!first?.[1] || !first[1].startsWith(projectDir) || first[1].includes('node_modules')) return null;
  return `${relative(projectDir, first[1])}:${first[2]}`;
}
