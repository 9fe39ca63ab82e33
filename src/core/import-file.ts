import { pathToFileURL } from 'node:url';

/**
 * Imports the file at `path` as Node imports it (an ES module, or a CommonJS one's exports as its
 * default): for files known only at run time, a project's `.mjs` config or an ES module provider
 * package. The built server is a node:vm script, where `import()` has no loader: there
 * scripts/bundle-cli.mjs replaces this module by dist/import-file.cjs (this function, compiled
 * by Node's own loader, which has one).
 */
export function importFile(path: string): Promise<unknown> {
  return import(pathToFileURL(path).href);
}
