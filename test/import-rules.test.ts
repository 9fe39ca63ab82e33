import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The house rules that keep consumers thin (ARCHITECTURE.md, issue 17), checked over src/:
 * - route modules (`api/`) reach documents through the document service and never import the
 *   planner, the SQL compiler or the drivers (`plan/`, `sql/`, `db/`);
 * - SQL text and dialect names live in `sql/` and `db/` only (the project's config names its
 *   database client, so `config/` may name them too).
 * Each rule is also run on a sample that breaks it, so a scan that finds nothing proves something.
 */

const SRC = resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The top folder under src/ of a file (`api`, `db`, …; `.` for src/ itself). */
const folderOf = (file: string) => relative(SRC, file).split(/[\\/]/).slice(0, -1)[0] ?? '.';

/** The src/ folders a file imports from (relative imports only). */
function importedFolders(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => folderOf(resolve(dirname(file), specifier)));
}

const FORBIDDEN_FOR_API = new Set(['plan', 'sql', 'db']);
const SQL_AND_DIALECT_HOMES = new Set(['sql', 'db']);
/** A string that starts like an SQL statement: `select …`, `insert into …`, `pragma …`. */
const SQL_TEXT =
  /['"`]\s*(select\s.+\sfrom|insert\s+(or\s+\w+\s+)?into|update\s+\S+\s+set|delete\s+from|create\s+(table|index)|drop\s+table|alter\s+table|pragma|attach\s+database)\b/i;
/** A dialect or client name compared or quoted as a value. */
const DIALECT_NAME = /dialect\.name\b|['"](sqlite|postgres|mysql)['"]/;

/** The API consumers (REST routes, GraphQL) read and write through documents/, never below it. */
const CONSUMERS = new Set(['api', 'graphql']);

function apiImportProblems(file: string, text: string): string[] {
  if (!CONSUMERS.has(folderOf(file))) return [];
  return importedFolders(file, text)
    .filter((folder) => FORBIDDEN_FOR_API.has(folder))
    .map((folder) => `${relative(SRC, file)} imports from ${folder}/`);
}

function sqlAndDialectProblems(file: string, text: string): string[] {
  const folder = folderOf(file);
  if (SQL_AND_DIALECT_HOMES.has(folder)) return [];
  return text.split('\n').flatMap((line, index) => {
    const where = `${relative(SRC, file)}:${index + 1}`;
    const problems: string[] = [];
    if (SQL_TEXT.test(line)) problems.push(`${where} has SQL text: ${line.trim()}`);
    if (folder !== 'config' && DIALECT_NAME.test(line)) problems.push(`${where} names a dialect: ${line.trim()}`);
    return problems;
  });
}

describe('import rules', () => {
  const files = sourceFiles(SRC);

  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((file) => folderOf(file) === 'api')).toBe(true);
  });

  it('api/ and graphql/ import nothing from plan/, sql/ or db/', () => {
    expect(files.flatMap((file) => apiImportProblems(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('no SQL text or dialect name outside sql/ and db/', () => {
    expect(files.flatMap((file) => sqlAndDialectProblems(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('each rule catches a file that breaks it', () => {
    const api = join(SRC, 'api', 'sample.ts');
    expect(apiImportProblems(api, "import { compileCount } from '../sql/compile-read.js';")).toEqual([
      'api/sample.ts imports from sql/',
    ]);
    expect(apiImportProblems(api, "import type { Database } from '../db/database.js';")).toHaveLength(1);
    expect(apiImportProblems(api, "import { findManyDocuments } from '../documents/read-documents.js';")).toEqual([]);
    expect(
      apiImportProblems(join(SRC, 'graphql', 'sample.ts'), "import { planSelect } from '../plan/plan-read.js';"),
    ).toEqual(['graphql/sample.ts imports from plan/']);
    const webhooks = join(SRC, 'webhooks', 'sample.ts');
    expect(sqlAndDialectProblems(webhooks, "run({ sql: 'select count(*) as n from sqlite_master' })")).toHaveLength(1);
    expect(
      sqlAndDialectProblems(webhooks, 'const text = `insert or ignore into "t" (a) select a from moved."t"`;'),
    ).toHaveLength(1);
    expect(sqlAndDialectProblems(webhooks, "if (db.dialect.name === 'postgres') return;")).toHaveLength(1);
    expect(sqlAndDialectProblems(webhooks, "if (database.client !== 'sqlite') return null;")).toHaveLength(1);
    expect(sqlAndDialectProblems(join(SRC, 'db', 'sample.ts'), "run({ sql: 'pragma optimize' })")).toEqual([]);
    expect(sqlAndDialectProblems(join(SRC, 'config', 'sample.ts'), "client === 'sqlite'")).toEqual([]);
    expect(sqlAndDialectProblems(webhooks, "throw new Error('Cannot delete only the draft')")).toEqual([]);
  });
});
