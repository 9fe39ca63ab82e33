import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as TypeScript from 'typescript';

/** TypeScript's compiler API (only its parser is used: nothing read with it is ever run). */
export type TypeScriptApi = typeof TypeScript;

/** The package name, kept out of a literal `require('…')` so the bundler leaves it to run time. */
const PACKAGE = ['type', 'script'].join('');

/**
 * TypeScript's parser, from Cairn's development install or else from the project's own
 * dependencies (a Strapi TypeScript project has it); null when neither has it (a production
 * install of Cairn serving a JavaScript project). Loading it takes about half a second, so callers ask only
 * when they have a file to read.
 */
export function loadTypeScript(projectDir: string): TypeScriptApi | null {
  for (const from of [import.meta.url, join(projectDir, 'package.json')]) {
    try {
      return createRequire(from)(PACKAGE) as TypeScriptApi;
    } catch {
      // not installed there; try the next place
    }
  }
  return null;
}
