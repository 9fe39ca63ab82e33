import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

type Transform = typeof import('sucrase').transform;

let sucrase: Transform | null = null;

/**
 * Loads the compiler ahead of a start that will compile (from Cairn's bundle, where it is kept
 * compiled), so that compiling inside a synchronous `require` finds it loaded.
 */
export async function preloadTranspiler(): Promise<void> {
  sucrase ??= (await import('./sucrase-transform.js')).sucraseTransform;
}

/** A small TypeScript module using what project files commonly do: what warmTranspiler compiles. */
const WARM_SOURCE = `import { factories } from '@strapi/strapi';
import type { Core } from '@strapi/strapi';
import * as path from 'node:path';
export interface Options<T = unknown> { readonly name?: string; items: T[] }
enum Kind { A = 'a', B = 'b' }
export default factories.createCoreController('api::a.a', ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: any): Promise<unknown> {
    const { data, meta } = (await super.find(ctx)) as { data: unknown[]; meta: Record<string, unknown> };
    const value = ctx.query?.locale ?? Kind.A;
    return { data, meta: { ...meta, value, dir: path.join('a', \`\${value}\`) } };
  },
}));
export const env = ({ env }: { env: (name: string, fallback?: string) => string }) => ({ key: env('KEY', 'x') as string });
`;

/**
 * Runs the compiler once on a small module, so that its functions are compiled: a code cache of
 * Cairn's bundle saved next holds them, and a TypeScript project's first start skips that work.
 */
export async function warmTranspiler(): Promise<void> {
  await preloadTranspiler();
  transpileToCommonJs(WARM_SOURCE, '/warm/controller.ts');
  transpileToCommonJs('import a from "a";\nexport const b = () => a;\nexport default { b };\n', '/warm/config.mjs');
}

/**
 * A project's TypeScript or ES module file as CommonJS that Node compiles itself: types
 * stripped, `import`/`export` turned into `require`/`exports` (`import()` into a promise of a
 * `require`), lines kept where they were, so stack lines name the source's own. Sucrase does it
 * (loaded on first use, about a tenth of Babel's start-up, and a few milliseconds a file); it
 * checks no types, as Strapi's build does not need it to run. A file that does not parse throws
 * a SyntaxError whose stack's frame is the file, line and column (`at /p/src/x.ts:3:16`).
 */
export function transpileToCommonJs(source: string, file: string): string {
  // Not preloaded (a file reached by a require nobody saw coming): from node_modules. The package
  // name is built at run time so the bundler leaves this one to node_modules.
  sucrase ??= (createRequire(import.meta.url)(['suc', 'rase'].join('')) as typeof import('sucrase')).transform;
  const typescript = /\.[cm]?tsx?$/.test(file);
  // CommonJS has no import.meta: what ES modules read of it, as this file's values.
  const code = source
    .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(file).href))
    .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(file)))
    .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(file));
  try {
    return sucrase(code, {
      transforms: typescript ? ['typescript', 'imports'] : ['imports'],
      filePath: file,
      ...(/\.tsx$/.test(file) && { transforms: ['typescript', 'imports', 'jsx'] }),
    }).code;
  } catch (error) {
    const loc = (error as { loc?: { line?: number; column?: number } }).loc;
    // Sucrase's message names the file (absolute) and ends with the position: both said once, below.
    const message = (error instanceof Error ? error.message : String(error))
      .replace(/^Error transforming [^:]+: /, '')
      .replace(/\s*\(\d+:\d+\)\s*$/, '');
    const failure = new SyntaxError(message);
    failure.stack = `SyntaxError: ${message}\n    at ${file}:${loc?.line ?? 1}:${(loc?.column ?? 0) + 1}`;
    throw failure;
  }
}
