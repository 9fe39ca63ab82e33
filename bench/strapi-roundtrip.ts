/**
 * Going back and forth between Cairn and real Strapi 5.54 on one database, on SQLite, PostgreSQL
 * and MySQL/MariaDB (not part of CI: Strapi's install is ~720 MB).
 *
 *   npm run build && node --import jiti/register bench/strapi-roundtrip.ts --strapi /tmp/strapi-ref [--databases sqlite,postgres]
 *
 * `--strapi` is a Strapi 5.54 app serving the same content model as examples/blog, with `pg` and
 * `mysql2` installed and examples/blog's config/database.js (the reference recipe set up by
 * /work/shared/reference/strapi.sh, plus `npm install pg mysql2` and that file copied in).
 *
 * Per database, two journeys, each checked step by step:
 * 1. Cairn creates the database and seeds it through REST; Strapi starts on it (it must run no
 *    migration and no schema diff: `strapi_migrations_internal` and `strapi_database_schema`
 *    unchanged; every content, component and link table keeps its row count) and serves the same
 *    documents; then Cairn again serves the same documents.
 * 2. Strapi creates the database and is seeded through its REST API; Cairn starts on it (it must
 *    leave Strapi's bookkeeping rows as they are) and serves the same documents; Strapi again.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/open-database.js';
import { loadProject } from '../src/project/load-project.js';
import { modelTables } from '../src/schema/tables.js';
import { prepareRoundtripDatabase, type RoundtripDatabase } from './roundtrip-database.js';
import { roundtripPaths, seedRoundtripContent } from './roundtrip-seed.js';
import { spawnServer, type ServerProcess } from './server-process.js';
import { QUIET_STRAPI } from './strapi-env.js';

const REPO = resolve(import.meta.dirname, '..');
const CAIRN_PORT = Number(process.env.CAIRN_PORT ?? 14031);
const STRAPI_PORT = Number(process.env.STRAPI_PORT ?? 1403);

const { values } = parseArgs({
  options: { strapi: { type: 'string' }, databases: { type: 'string', default: 'sqlite,postgres,mysql' } },
});
if (!values.strapi)
  throw new Error('usage: strapi-roundtrip.ts --strapi <Strapi 5.54 app folder> [--databases sqlite,postgres,mysql]');
const strapiDir = resolve(values.strapi);

let failures = 0;
function check(label: string, ok: boolean, detail = ''): void {
  if (!ok) failures++;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label}${ok || !detail ? '' : `\n       ${detail}`}`);
}

/** Row counts of the tables holding content (project types, components, their links, files), plus Strapi's bookkeeping rows. */
async function snapshot(
  projectDir: string,
  env: Readonly<Record<string, string>>,
): Promise<{ counts: Record<string, number>; bookkeeping: string }> {
  const project = await loadProject(projectDir, env);
  const db = await openDatabase(project.config.database);
  try {
    const models = [...project.schema.contentTypes.values()].filter(
      (type) => type.origin === 'api' || type.uid === 'plugin::upload.file' || type.uid === 'plugin::i18n.locale',
    );
    const tables = [...models, ...project.schema.components.values()].flatMap((model) => {
      const { table, componentLinks, links } = modelTables(project.schema, model);
      return [table, ...(componentLinks ? [componentLinks] : []), ...links].map((spec) => spec.name);
    });
    const counts: Record<string, number> = {};
    for (const table of [...new Set(tables)].sort())
      counts[table] = Number(
        (await db.all({ sql: `select count(*) as n from ${db.dialect.quoteIdentifier(table)}`, params: [] }))[0]?.n,
      );
    const rows = async (sql: string) => JSON.stringify(await db.all({ sql, params: [] }));
    const bookkeeping = [
      await rows('select id, name, time from strapi_migrations_internal order by id'),
      await rows('select id, hash, time from strapi_database_schema order by id'),
      await rows(`select count(*) as n from strapi_migrations`),
    ].join('\n');
    return { counts, bookkeeping };
  } finally {
    await db.close();
  }
}

async function getAll(base: string, paths: readonly string[]): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const path of paths) {
    const response = await fetch(`${base}${path}`);
    answers[path] = { status: response.status, body: await response.json() };
  }
  return answers;
}

/**
 * The first place two JSON values differ (`.body.data[2].tags[0].name: "a" ≠ "b"`), or null. With
 * `keyOrder`, objects with the same members in another order differ too.
 */
function firstDifference(a: unknown, b: unknown, keyOrder: boolean, at = ''): string | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const found = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        keyOrder,
        Array.isArray(a) ? `${at}[${key}]` : `${at}.${key}`,
      );
      if (found) return found;
    }
    return keyOrder ? `${at}: key order ${JSON.stringify(Object.keys(a))} ≠ ${JSON.stringify(Object.keys(b))}` : null;
  }
  return `${at}: ${JSON.stringify(a)?.slice(0, 200)} ≠ ${JSON.stringify(b)?.slice(0, 200)}`;
}

/** Same status and same JSON (members in any order); a difference in member order alone is listed as a note. */
function sameAnswers(label: string, expected: Record<string, unknown>, actual: Record<string, unknown>): void {
  const paths = Object.keys(expected);
  const differing = paths.filter((path) => firstDifference(expected[path], actual[path], false) !== null);
  check(
    `${label}: ${paths.length - differing.length}/${paths.length} GETs answer the same`,
    differing.length === 0,
    differing
      .slice(0, 4)
      .map((path) => `${path.slice(0, 60)}… ${firstDifference(expected[path], actual[path], false)}`)
      .join('\n       '),
  );
  const reordered = paths.filter(
    (path) => !differing.includes(path) && firstDifference(expected[path], actual[path], true) !== null,
  );
  if (reordered.length > 0)
    console.log(
      `       note: ${reordered.length} of them list members in another order, e.g. ${firstDifference(expected[reordered[0]!], actual[reordered[0]!], true)}`,
    );
}

function startCairn(projectDir: string, env: Readonly<Record<string, string>>): Promise<ServerProcess> {
  return spawnServer({
    args: [join(REPO, 'bin/cairn.js'), 'start', '--dir', projectDir],
    cwd: projectDir,
    env,
    port: CAIRN_PORT,
    readyPath: '/api/tags',
  });
}

function startStrapi(env: Readonly<Record<string, string>>): Promise<ServerProcess> {
  return spawnServer({
    args: ['node_modules/@strapi/strapi/bin/strapi.js', 'start'],
    cwd: strapiDir,
    env: { ...QUIET_STRAPI, ...env },
    port: STRAPI_PORT,
    readyPath: '/api/tags',
    readyTimeoutMs: 120_000,
  });
}

function countsDiff(before: Record<string, number>, after: Record<string, number>): string {
  return Object.keys(before)
    .filter((table) => before[table] !== after[table])
    .map((table) => `${table} ${before[table]} → ${after[table]}`)
    .join(', ');
}

async function journeyFromCairn(database: RoundtripDatabase, projectDir: string): Promise<void> {
  console.log(`[${database.kind}] Cairn creates and fills the database, then Strapi, then Cairn`);
  const cairnEnv = database.envFor(projectDir);
  let cairn = await startCairn(projectDir, cairnEnv);
  const articles = await seedRoundtripContent(cairn.baseUrl);
  const paths = roundtripPaths(articles);
  const fromCairn = await getAll(cairn.baseUrl, paths);
  await cairn.stop();
  const before = await snapshot(projectDir, cairnEnv);
  console.log(
    `  seeded: ${Object.entries(before.counts)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  );

  const strapi = await startStrapi(database.envFor(strapiDir));
  const fromStrapi = await getAll(strapi.baseUrl, paths);
  await strapi.stop();
  const afterStrapi = await snapshot(projectDir, cairnEnv);
  check(
    'Strapi ran no internal migration and no schema diff (its bookkeeping rows unchanged)',
    afterStrapi.bookkeeping === before.bookkeeping,
    `${before.bookkeeping}\n  → ${afterStrapi.bookkeeping}`,
  );
  check(
    `Strapi kept the row count of ${Object.keys(before.counts).length} content, component and link tables`,
    countsDiff(before.counts, afterStrapi.counts) === '',
    countsDiff(before.counts, afterStrapi.counts),
  );
  sameAnswers('Strapi serves what Cairn served', fromCairn, fromStrapi);

  cairn = await startCairn(projectDir, cairnEnv);
  const again = await getAll(cairn.baseUrl, paths);
  await cairn.stop();
  sameAnswers('Cairn after Strapi serves the same', fromCairn, again);
}

async function journeyFromStrapi(database: RoundtripDatabase, projectDir: string): Promise<void> {
  console.log(`[${database.kind}] Strapi creates and fills the database, then Cairn, then Strapi`);
  const cairnEnv = database.envFor(projectDir);
  let strapi = await startStrapi(database.envFor(strapiDir));
  const articles = await seedRoundtripContent(strapi.baseUrl);
  const paths = roundtripPaths(articles);
  const fromStrapi = await getAll(strapi.baseUrl, paths);
  await strapi.stop();
  const before = await snapshot(projectDir, cairnEnv);

  const cairn = await startCairn(projectDir, cairnEnv);
  const fromCairn = await getAll(cairn.baseUrl, paths);
  await cairn.stop();
  const afterCairn = await snapshot(projectDir, cairnEnv);
  check(
    "Cairn left Strapi's bookkeeping rows as they were",
    afterCairn.bookkeeping === before.bookkeeping,
    `${before.bookkeeping}\n  → ${afterCairn.bookkeeping}`,
  );
  check(
    'Cairn kept every row count',
    countsDiff(before.counts, afterCairn.counts) === '',
    countsDiff(before.counts, afterCairn.counts),
  );
  sameAnswers('Cairn serves what Strapi served', fromStrapi, fromCairn);

  strapi = await startStrapi(database.envFor(strapiDir));
  const again = await getAll(strapi.baseUrl, paths);
  await strapi.stop();
  const afterStrapi = await snapshot(projectDir, cairnEnv);
  check(
    'Strapi after Cairn: no migration, no schema diff, same row counts',
    afterStrapi.bookkeeping === before.bookkeeping && countsDiff(before.counts, afterStrapi.counts) === '',
    countsDiff(before.counts, afterStrapi.counts),
  );
  sameAnswers('Strapi after Cairn serves the same', fromStrapi, again);
}

for (const kind of values.databases.split(',')) {
  for (const journey of [journeyFromCairn, journeyFromStrapi]) {
    const projectDir = mkdtempSync(join(tmpdir(), 'cairn-roundtrip-'));
    cpSync(join(REPO, 'examples/blog'), projectDir, { recursive: true });
    const database = await prepareRoundtripDatabase(kind, join(projectDir, '.tmp/roundtrip.db'));
    try {
      await journey(database, projectDir);
    } finally {
      await database.drop();
      rmSync(projectDir, { recursive: true, force: true });
    }
  }
}
console.log(failures === 0 ? 'round trip: every check passed' : `round trip: ${failures} check(s) failed`);
process.exitCode = failures === 0 ? 0 : 1;
