import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

type Sucrase = typeof import('sucrase');

let sucrase: Sucrase | null = null;

/**
 * A project's TypeScript or ES module file as CommonJS that Node compiles itself: types
 * stripped, `import`/`export` turned into `require`/`exports` (`import()` into a promise of a
 * `require`), lines kept where they were, so stack lines name the source's own. Sucrase does it
 * (loaded on first use, about a tenth of Babel's start-up, and a few milliseconds a file); it
 * checks no types, as Strapi's build does not need it to run. A file that does not parse throws
 * a SyntaxError whose stack's frame is the file, line and column (`at /p/src/x.ts:3:16`).
 */
export function transpileToCommonJs(source: string, file: string): string {
  // The package name is built at run time so the bundler leaves it to node_modules.
  sucrase ??= createRequire(import.meta.url)(['suc', 'rase'].join('')) as Sucrase;
  const typescript = /\.[cm]?tsx?$/.test(file);
  // CommonJS has no import.meta: what ES modules read of it, as this file's values.
  const code = source
    .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(file).href))
    .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(file)))
    .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(file));
  try {
    return sucrase.transform(code, {
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
