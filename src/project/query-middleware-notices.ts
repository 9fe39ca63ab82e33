import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { DefaultQueries } from '../config/default-queries-config.js';
import { loadTypeScript } from './load-typescript.js';
import { readMiddlewareRoutes, type MiddlewareRoute } from './read-middleware-routes.js';
import { readQueryMiddleware, type QueryMiddleware } from './read-query-middlewares.js';

const CODE_FILE = /^(?!.*\.d\.ts$).*\.(js|cjs|mjs|ts)$/;

/**
 * Start-up notices for the populate middlewares of `src/api/<api>/middlewares/` (Strapi runs
 * them, Cairn does not): the `config/api.js` `defaultQueries` that does the same, one line to
 * copy, for every core route a routes file attaches such a middleware to and `config/api` does
 * not configure yet:
 *
 *   populate middlewares Cairn does not run: src/api/page/middlewares/page-populate.ts. The same
 *   in config/api.js (…): defaultQueries: { 'api::page.page.find': { populate: { blocks: true } } }
 *
 * plus one notice per middleware whose value is not a literal, that no route uses, or that runs
 * on a custom route. Files are parsed with TypeScript's parser (load-typescript.ts), only when a
 * middleware mentions `query`; nothing is executed.
 */
export function queryMiddlewareNotices(projectDir: string, configured: DefaultQueries): string[] {
  const apis = join(projectDir, 'src', 'api');
  const candidates = codeFiles(apis, 'middlewares').filter((file) => file.source.includes('query'));
  if (candidates.length === 0) return [];
  const ts = loadTypeScript(projectDir);
  if (ts === null) {
    return [
      `${candidates.map((file) => file.path).join(', ')} may set a default query; Cairn does not run middlewares and needs TypeScript's parser to read them (install typescript in the project to see their config/api.js equivalent)`,
    ];
  }
  const middlewares = candidates
    .map((file) => ({ name: `api::${file.api}.${basename(file.path, extname(file.path))}`, file }))
    .map(({ name, file }) => ({ name, read: readQueryMiddleware(ts, file.path, file.source) }))
    .filter((entry): entry is { name: string; read: QueryMiddleware } => entry.read !== null);
  if (middlewares.length === 0) return [];
  const routes: MiddlewareRoute[] = codeFiles(apis, 'routes').flatMap((file) =>
    readMiddlewareRoutes(ts, file.api, file.path, file.source),
  );
  const notices: string[] = [];
  const suggested = new Map<string, Record<string, unknown>>();
  const sources: string[] = [];
  for (const { name, read } of middlewares) {
    const mine = routes.filter((route) => route.middleware === name);
    for (const problem of read.problems)
      notices.push(`${read.file} sets ${problem}; write its default in config/api.js defaultQueries by hand`);
    if (mine.length === 0)
      notices.push(`${read.file} (${name}) sets the request's query, but no routes file attaches it to a route`);
    for (const route of mine.filter((r) => !r.core))
      notices.push(`${read.file} runs on the custom route ${route.action}, which Cairn does not serve`);
    const core = mine.filter((route) => route.core && !configured.has(route.action));
    if (core.length === 0 || Object.keys(read.query).length === 0) continue;
    sources.push(read.file);
    for (const route of core) suggested.set(route.action, { ...suggested.get(route.action), ...read.query });
  }
  if (suggested.size > 0) {
    const entries = [...suggested].map(([action, query]) => `${jsLiteral(action)}: ${jsLiteral(query)}`);
    notices.unshift(
      `populate middlewares Cairn does not run: ${sources.join(', ')}. The same defaults in config/api.js ` +
        `(a request's own populate, fields, filters or sort then replaces the default's): ` +
        `defaultQueries: { ${entries.join(', ')} }`,
    );
  }
  return notices;
}

interface CodeFile {
  readonly api: string;
  /** Relative to the project: `src/api/page/middlewares/page-populate.ts`. */
  readonly path: string;
  readonly source: string;
}

/** The code files of `src/api/<api>/<folder>/` of every api, sorted. */
function codeFiles(apis: string, folder: string): CodeFile[] {
  if (!existsSync(apis)) return [];
  const files: CodeFile[] = [];
  for (const api of readdirSync(apis).sort()) {
    const dir = join(apis, api, folder);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (!CODE_FILE.test(name) || !statSync(full).isFile()) continue;
      files.push({ api, path: ['src', 'api', api, folder, name].join('/'), source: readFileSync(full, 'utf8') });
    }
  }
  return files;
}

/** A value as a one-line JavaScript literal with single-quoted strings (log lines keep it copyable). */
export function jsLiteral(value: unknown): string {
  if (typeof value === 'string') return `'${JSON.stringify(value).slice(1, -1).replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(jsLiteral).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(
      ([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : jsLiteral(key)}: ${jsLiteral(item)}`,
    );
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return String(value);
}
