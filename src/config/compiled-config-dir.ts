import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * Where Strapi runs a project's config files from. A TypeScript project (a `tsconfig.json` at its
 * root, Strapi's own test) is compiled first, and Strapi loads `<outDir>/config/*.js`: inside
 * `config/database.ts`, `__dirname` is `<project>/dist/config`. Strapi's TypeScript template
 * relies on it: `path.join(__dirname, '..', '..', '.tmp/data.db')` names `<project>/.tmp/data.db`.
 * A JavaScript project runs `config/` where it is.
 *
 *   tsconfig.json { "compilerOptions": { "outDir": "dist" } }  → <project>/dist
 *   no tsconfig.json, no outDir in it, or not readable          → null (config runs where it is)
 *
 * Only the project's own tsconfig.json is read: the base Strapi's template extends
 * (`@strapi/typescript-utils/tsconfigs/server`) sets no outDir.
 */
export function compiledProjectRoot(projectDir: string): string | null {
  const file = join(projectDir, 'tsconfig.json');
  if (!existsSync(file)) return null;
  const tsconfig = parseJsonc(readFileSync(file, 'utf8'));
  const options = isObject(tsconfig) ? tsconfig.compilerOptions : undefined;
  const outDir = isObject(options) ? options.outDir : undefined;
  return typeof outDir === 'string' && outDir !== '' ? resolve(projectDir, outDir) : null;
}

/**
 * The file Strapi runs for `file` (a config file of the project), or null when it runs the file
 * itself: `<project>/config/database.ts` → `<project>/dist/config/database.js`.
 */
export function compiledConfigFile(projectDir: string, compiledRoot: string | null, file: string): string | null {
  if (compiledRoot === null || file.endsWith('.json')) return null;
  return join(compiledRoot, relative(projectDir, file)).replace(/\.(ts|cjs|mjs)$/, '.js');
}

/** tsconfig's JSON with comments and trailing commas, or undefined when it does not parse. */
function parseJsonc(text: string): unknown {
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '"') {
      const end = stringEnd(text, i);
      plain += text.slice(i, end);
      i = end - 1;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      plain += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? text.length : close + 1;
    } else plain += char;
  }
  try {
    return JSON.parse(plain.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
}

/** The index just past the JSON string starting at `start` (a double quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
