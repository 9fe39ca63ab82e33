/**
 * GraphQL against REST, Cairn beside real Strapi 5.54 with @strapi/plugin-graphql, on the same data
 * (issue 19; not part of CI: Strapi's install is ~720 MB).
 *
 *   npm run build && node --import jiti/register bench/graphql-bench.ts --strapi /tmp/strapi-ref [--articles 2000] [--seconds 5]
 *
 * `--strapi` is the reference app with the plugin (/work/shared/reference/strapi.sh setup, then
 * graphql). Its database is reset first (`.tmp/data.db*` and the uploads deleted, as `strapi.sh
 * reset` does) and left seeded afterwards; it must not be running from strapi.sh meanwhile.
 * Cairn runs as `bin/cairn.js start` on a copy of examples/blog whose config/plugins.js gets the
 * `graphql` entry of the blog fixture (endpoint /graphql, defaultLimit 25, maxLimit 100,
 * depthLimit 10). Both are seeded through their REST API with `npm run bench`'s dataset
 * (bench/dataset.ts: 2,000 articles, 200 authors, 50 tags, 40 uploaded JPEGs).
 *
 * Four kinds, each server running at once and measured in turn (autocannon, 10 connections,
 * 2 s warm-up): per pair, Cairn REST, Cairn GraphQL, Strapi REST, Strapi GraphQL, then the same
 * in reverse, each side's two runs averaged so that a drift in the machine's speed weighs on all:
 *
 * - `REST populate=*`: `GET /api/articles?populate=*` (bench/request-kinds.ts)
 * - `GraphQL populate=*`: POST /graphql, `articles` with every scalar and every relation, media,
 *   component and dynamic-zone field one level deep, localizations included, as populate=*
 *   returns them (POPULATE_ALL)
 * - `REST 3-level through DZ`: bench/request-kinds.ts's `3-level populate through DZ`
 * - `GraphQL 3-level through DZ`: blocks with the quote's author and that author's article titles,
 *   the rich text and the media block (its `file` left out: REST's `[shared.media-block]=true`
 *   does not populate it) (NESTED_DZ)
 *
 * Before measuring, each server's REST and GraphQL answers are compared (same documents in the
 * same order, same relations, media and blocks; a line is printed for any difference) and every
 * answer must be 200 without `errors`; afterwards each GraphQL kind is asked once more.
 * Statements per request: Cairn's are counted in-process as bench/count-statements.ts does;
 * Strapi's from knex's debug log (bench/strapi-statements.ts: a second start with
 * DEBUG=knex:query, one request at a time).
 *
 * Other options: `--connections 10`, `--warmup 2`, `--authors 200`, `--tags 50`, `--images 40`,
 * `--dump <folder>` (writes the answers compared before measuring, one JSON file each, and the
 * GraphQL request bodies, e.g. for `autocannon -m POST -i <file>`), `--keep`
 * (leaves the seeded Cairn project in the temporary folder, e.g. to profile it).
 * Without `--strapi` only Cairn runs (Strapi's columns read n/a).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countStatements } from './count-statements.js';
import { buildDataset } from './dataset.js';
import { meanResult, measure, type LoadOptions, type LoadResult } from './load.js';
import { requestKinds, type RequestKind } from './request-kinds.js';
import { seedThroughApi, type SeedResult } from './seed.js';
import { freePort, spawnServer, type ServerProcess } from './server-process.js';
import { countStrapiStatements, type StrapiStatementCount } from './strapi-statements.js';
import { checkStrapiApp, resetStrapi, warmStrapiUploads } from './strapi-app.js';
import { QUIET_STRAPI } from './strapi-env.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The blog fixture's graphql settings (/work/shared/fixtures/blog/config/plugins.js), as Strapi's app has them. */
const GRAPHQL_PLUGIN_ENTRY = `  graphql: {
    config: {
      endpoint: '/graphql',
      shadowCRUD: true,
      landingPage: false,
      depthLimit: 10,
      amountLimit: 100,
      defaultLimit: 25,
      maxLimit: 100,
      apolloServer: { introspection: true },
    },
  },
`;

const ARTICLE_SCALARS =
  'documentId title slug summary body content views rating price bigcount isFeatured publishDate publishTime ' +
  'eventAt stamp meta category contactEmail createdAt updatedAt publishedAt locale';
const AUTHOR_FRAGMENT = `
fragment AuthorFields on Author { documentId name email bio createdAt updatedAt publishedAt }`;
const FRAGMENTS = `${AUTHOR_FRAGMENT}
fragment FileFields on UploadFile {
  documentId name alternativeText caption width height formats hash ext mime size url previewUrl
  provider provider_metadata focalPoint createdAt updatedAt publishedAt
}`;
/** GraphQL's `populate=*`: every scalar, and every relation, media, component and dynamic zone one level deep. */
const POPULATE_ALL = `query PopulateAll {
  articles {
    ${ARTICLE_SCALARS}
    author { ...AuthorFields }
    editor { ...AuthorFields }
    tags { documentId name createdAt updatedAt publishedAt }
    cover { ...FileFields }
    gallery { ...FileFields }
    seo { id metaTitle metaDescription }
    localizations { ${ARTICLE_SCALARS} }
    blocks {
      __typename
      ... on ComponentSharedQuote { id title body }
      ... on ComponentSharedRichText { id body }
      ... on ComponentSharedMediaBlock { id }
    }
  }
}${FRAGMENTS}`;
/** GraphQL's `populate[blocks][on][shared.quote][populate][author][populate][articles][fields][0]=title` (+ the other two components). */
const NESTED_DZ = `query NestedDz {
  articles {
    ${ARTICLE_SCALARS}
    blocks {
      __typename
      ... on ComponentSharedQuote { id title body author { ...AuthorFields articles { documentId title } } }
      ... on ComponentSharedRichText { id body }
      ... on ComponentSharedMediaBlock { id }
    }
  }
}${AUTHOR_FRAGMENT}`;

const { values: args } = parseArgs({
  options: {
    strapi: { type: 'string' },
    articles: { type: 'string', default: '2000' },
    authors: { type: 'string', default: '200' },
    tags: { type: 'string', default: '50' },
    images: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    dump: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});

type Protocol = 'rest' | 'graphql';
type ServerName = 'cairn' | 'strapi';

/** A REST kind and its GraphQL equivalent. */
interface KindPair {
  readonly label: string;
  readonly rest: RequestKind;
  readonly graphql: RequestKind;
}

/** One started and seeded server. */
interface Side {
  readonly name: ServerName;
  readonly server: ServerProcess;
  readonly seeded: SeedResult;
}

/** One measured kind on both servers. */
interface Row {
  readonly kind: RequestKind;
  readonly protocol: Protocol;
  readonly pair: KindPair;
  readonly cairn: LoadResult;
  readonly strapi: LoadResult | undefined;
}

async function main(): Promise<number> {
  if (!existsSync(join(root, 'dist/cairn.cjs')))
    throw new Error('dist/cairn.cjs is missing: run `npm run build` first');
  const strapiDir = args.strapi === undefined ? undefined : resolve(args.strapi);
  if (strapiDir) checkStrapiApp(strapiDir, { graphql: true });
  const size = {
    articles: Number(args.articles),
    authors: Number(args.authors),
    tags: Number(args.tags),
    images: Number(args.images),
  };
  const load: LoadOptions = {
    connections: Number(args.connections),
    seconds: Number(args.seconds),
    warmupSeconds: Number(args.warmup),
  };
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-graphql-bench-'));
  const projectDir = join(workDir, 'project');
  cpSync(join(root, 'examples/blog'), projectDir, {
    recursive: true,
    filter: (source) => !/[/\\](\.tmp|\.env)$/.test(source),
  });
  addGraphqlEntry(join(projectDir, 'config/plugins.js'));
  const cairnEnv = { DATABASE_CLIENT: 'sqlite' };
  const strapiPort = await freePort();

  const sides: Side[] = [];
  const problems: string[] = [];
  try {
    log(`cairn: starting on a fresh database (${projectDir}), seeding ${describeSize(size)}`);
    const cairnServer = await spawnServer({
      args: [join(root, 'bin/cairn.js'), 'start', '--dir', projectDir],
      cwd: projectDir,
      env: cairnEnv,
      port: await freePort(),
      readyPath: '/api/articles',
    });
    sides.push(await seed('cairn', cairnServer, size));
    if (strapiDir) {
      resetStrapi(strapiDir);
      log(`strapi: starting on a reset database (${strapiDir}), seeding ${describeSize(size)}`);
      const strapiServer = await spawnServer({
        args: ['node_modules/@strapi/strapi/bin/strapi.js', 'start'],
        cwd: strapiDir,
        env: QUIET_STRAPI,
        port: strapiPort,
        readyPath: '/api/articles',
        readyTimeoutMs: 180_000,
      });
      await warmStrapiUploads(strapiServer.baseUrl, strapiDir);
      sides.push(await seed('strapi', strapiServer, size));
    }
    const cairn = sides[0] as Side;
    const strapi = sides[1];

    const dataset = buildDataset(size);
    const restKinds = requestKinds({
      ...cairn.seeded,
      createTemplate: dataset.articles[0] as (typeof dataset.articles)[number],
    });
    const restKind = (name: string) => {
      const kind = restKinds.find((candidate) => candidate.name === name);
      if (!kind) throw new Error(`bench/request-kinds.ts has no kind named ${name}`);
      return kind;
    };
    const pairs: KindPair[] = [
      {
        label: 'populate=*',
        rest: { ...restKind('populate=*'), name: 'REST populate=*' },
        graphql: graphqlKind('GraphQL populate=*', POPULATE_ALL),
      },
      {
        label: '3-level through DZ',
        rest: { ...restKind('3-level populate through DZ'), name: 'REST 3-level through DZ' },
        graphql: graphqlKind('GraphQL 3-level through DZ', NESTED_DZ),
      },
    ];

    // The answers first: REST and GraphQL must carry the same documents on each server.
    const answers = new Map<string, Answer>();
    for (const side of sides) {
      for (const pair of pairs) {
        const rest = await ask(side.server.baseUrl, pair.rest);
        const graphql = await ask(side.server.baseUrl, pair.graphql);
        answers.set(`${side.name} ${pair.rest.name}`, rest);
        answers.set(`${side.name} ${pair.graphql.name}`, graphql);
        problems.push(
          ...answerProblems(side.name, pair.rest.name, rest),
          ...answerProblems(side.name, pair.graphql.name, graphql),
        );
        problems.push(...compareProtocols(side.name, pair.label, rest, graphql));
      }
    }
    if (strapi)
      for (const pair of pairs)
        for (const kind of [pair.rest, pair.graphql])
          problems.push(
            ...compareServers(kind.name, answers.get(`cairn ${kind.name}`), answers.get(`strapi ${kind.name}`)),
          );
    for (const problem of problems) process.stdout.write(`${problem.startsWith('note:') ? '' : '!!! '}${problem}\n`);
    if (problems.some((problem) => problem.startsWith('INVALID'))) {
      process.stdout.write('\n!!! Not measuring: some answers are not 200 or carry errors (see above).\n');
      return 1;
    }
    if (args.dump) {
      for (const pair of pairs)
        writeFileSync(
          join(args.dump, `${pair.graphql.name.replace(/[^a-z0-9]+/gi, '-')}.request.json`),
          pair.graphql.request(0).body as string,
        );
      for (const [key, answer] of answers)
        writeFileSync(
          join(args.dump, `${key.replace(/[^a-z0-9]+/gi, '-')}.json`),
          JSON.stringify(answer.body, null, 2),
        );
    }

    const loadAverage = loadavg()[0] ?? 0;
    log(`measuring (load average ${loadAverage.toFixed(2)})`);
    const rows: Row[] = [];
    for (const pair of pairs) {
      // Cairn REST, Cairn GraphQL, Strapi REST, Strapi GraphQL, then the same backwards.
      const order: [Side, RequestKind][] = sides.flatMap((side) => [
        [side, pair.rest],
        [side, pair.graphql],
      ]);
      const results = new Map<string, LoadResult[]>();
      for (const [side, kind] of [...order, ...[...order].reverse()]) {
        log(`${side.name}: ${kind.name}`);
        const result = await measure(side.server.baseUrl, kind, load);
        const key = `${side.name} ${kind.name}`;
        results.set(key, [...(results.get(key) ?? []), result]);
      }
      const averaged = (side: ServerName, kind: RequestKind) => {
        const runs = results.get(`${side} ${kind.name}`);
        return runs ? meanResult(runs[0] as LoadResult, runs[1] as LoadResult) : undefined;
      };
      for (const [protocol, kind] of [
        ['rest', pair.rest],
        ['graphql', pair.graphql],
      ] as const)
        rows.push({
          kind,
          protocol,
          pair,
          cairn: averaged('cairn', kind) as LoadResult,
          strapi: averaged('strapi', kind),
        });
    }
    const loadAfter = loadavg()[0] ?? 0;
    // The GraphQL answers once more: load must not have turned them into errors.
    for (const side of sides)
      for (const pair of pairs)
        problems.push(...answerProblems(side.name, pair.graphql.name, await ask(side.server.baseUrl, pair.graphql)));
    for (const side of sides) await side.server.stop();

    log('counting statements per request (Cairn in-process, Strapi restarted with DEBUG=knex:query)');
    const kinds = pairs.flatMap((pair) => [pair.rest, pair.graphql]);
    const cairnStatements = await countStatements(projectDir, cairnEnv, kinds);
    const strapiStatements = strapiDir
      ? await countStrapiStatements(strapiDir, QUIET_STRAPI, strapiPort, kinds)
      : undefined;

    const failed = rows.reduce(
      (sum, row) =>
        sum + row.cairn.errors + row.cairn.non2xx + (row.strapi ? row.strapi.errors + row.strapi.non2xx : 0),
      0,
    );
    process.stdout.write(
      `\n${report({ size, load, sides, rows, answers, cairnStatements, strapiStatements, loadAverage, loadAfter, problems })}\n`,
    );
    if (failed > 0) process.stdout.write(`\n!!! This run is INVALID: ${failed} requests did not answer 2xx.\n`);
    return failed > 0 || problems.some((problem) => problem.startsWith('INVALID')) ? 1 : 0;
  } finally {
    for (const side of sides) await side.server.stop();
    if (args.keep) log(`kept the seeded Cairn project in ${projectDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

function graphqlKind(name: string, query: string): RequestKind {
  const body = JSON.stringify({ query });
  return {
    name,
    request: () => ({ method: 'POST', path: '/graphql', body }),
    onLimitServer: false,
    writes: false,
  };
}

/** Adds the graphql entry to a copy of examples/blog's config/plugins.js (before its closing `});`). */
function addGraphqlEntry(pluginsFile: string): void {
  const text = readFileSync(pluginsFile, 'utf8');
  const end = text.lastIndexOf('});');
  if (end < 0) throw new Error(`${pluginsFile}: no closing "});" to add the graphql entry before`);
  writeFileSync(pluginsFile, `${text.slice(0, end)}${GRAPHQL_PLUGIN_ENTRY}${text.slice(end)}`);
}

async function seed(name: ServerName, server: ServerProcess, size: Parameters<typeof buildDataset>[0]): Promise<Side> {
  const seeded = await seedThroughApi(server.baseUrl, buildDataset(size));
  log(`${name}: seeded in ${seeded.seconds.toFixed(1)} s (started in ${server.startSeconds.toFixed(1)} s)`);
  return { name, server, seeded };
}

function describeSize(size: Parameters<typeof buildDataset>[0]): string {
  return `${size.images} images, ${size.authors} authors, ${size.tags} tags, ${size.articles} articles`;
}

// ---------------------------------------------------------------------------------------------
// The answers and how they compare

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly bytes: number;
  readonly protocol: Protocol;
}

async function ask(baseUrl: string, kind: RequestKind): Promise<Answer> {
  const request = kind.request(0);
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    ...(request.body === undefined ? {} : { body: request.body, headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // kept as text; reported below
  }
  return {
    status: response.status,
    body,
    bytes: Buffer.byteLength(text),
    protocol: request.path.startsWith('/graphql') ? 'graphql' : 'rest',
  };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The articles of an answer: REST's `data`, GraphQL's `data.articles`. */
function articlesOf(answer: Answer): Json[] {
  if (!isObject(answer.body)) return [];
  const data = answer.body.data;
  const articles = answer.protocol === 'rest' ? data : isObject(data) ? data.articles : undefined;
  return list(articles).filter(isObject);
}

function answerProblems(server: ServerName, kind: string, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status !== 200)
    problems.push(`INVALID: ${server} ${kind} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  if (isObject(answer.body) && answer.body.errors !== undefined)
    problems.push(
      `INVALID: ${server} ${kind} answered with errors: ${JSON.stringify(answer.body.errors).slice(0, 500)}`,
    );
  if (articlesOf(answer).length === 0) problems.push(`INVALID: ${server} ${kind} answered no articles`);
  return problems;
}

const COMPONENT_OF_TYPENAME: Record<string, string> = {
  ComponentSharedQuote: 'shared.quote',
  ComponentSharedRichText: 'shared.rich-text',
  ComponentSharedMediaBlock: 'shared.media-block',
};

/**
 * What an article carries, by natural keys (title, names, file names) so that two servers'
 * answers compare too; `withIds` adds the documentIds and component ids (one server's answers).
 */
function digest(article: Json, withIds: boolean): Json {
  const name = (value: unknown, key = 'name') =>
    isObject(value) ? `${String(value[key])}${withIds ? `#${String(value.documentId)}` : ''}` : null;
  const blocks = list(article.blocks)
    .filter(isObject)
    .map((block) => {
      const component =
        typeof block.__component === 'string' ? block.__component : COMPONENT_OF_TYPENAME[String(block.__typename)];
      const id = withIds ? `#${String(block.id)}` : '';
      const author = isObject(block.author)
        ? ` by ${String(name(block.author))}${
            block.author.articles === undefined
              ? ''
              : ` [${list(block.author.articles)
                  .filter(isObject)
                  .map((other) => name(other, 'title'))
                  .sort()
                  .join('; ')}]`
          }`
        : '';
      const file = block.file === undefined ? '' : ` file ${String(name(block.file))}`;
      const text =
        typeof block.title === 'string'
          ? ` "${block.title}"`
          : typeof block.body === 'string'
            ? ` "${block.body.slice(0, 24)}"`
            : '';
      return `${String(component)}${id}${text}${author}${file}`;
    });
  const present = (key: string, value: () => unknown) => (key in article ? { [key]: value() } : {});
  return {
    ...(withIds ? { documentId: article.documentId } : {}),
    title: article.title,
    ...present('author', () => name(article.author)),
    ...present('editor', () => name(article.editor)),
    ...present('tags', () =>
      list(article.tags)
        .map((tag) => name(tag))
        .sort(),
    ),
    ...present('cover', () => name(article.cover)),
    ...present('gallery', () => list(article.gallery).map((file) => name(file))),
    ...present('seo', () => (isObject(article.seo) ? [article.seo.metaTitle, article.seo.metaDescription] : null)),
    ...present('localizations', () => list(article.localizations).map((other) => name(other, 'title'))),
    blocks,
  };
}

/** Differences between one server's REST and GraphQL answers of a pair (documents, then scalar formats). */
function compareProtocols(server: ServerName, label: string, rest: Answer, graphql: Answer): string[] {
  const restArticles = articlesOf(rest);
  const graphqlArticles = articlesOf(graphql);
  const problems: string[] = [];
  const ids = (articles: Json[]) => articles.map((article) => String(article.documentId));
  if (ids(restArticles).join() !== ids(graphqlArticles).join()) {
    const same = [...ids(restArticles)].sort().join() === [...ids(graphqlArticles)].sort().join();
    problems.push(
      `${server} ${label}: REST and GraphQL answered ${same ? 'the same documents in a different order' : 'different documents'} ` +
        `(REST ${restArticles.length}: ${ids(restArticles).slice(0, 3).join(', ')}…; GraphQL ${graphqlArticles.length}: ${ids(graphqlArticles).slice(0, 3).join(', ')}…)`,
    );
  }
  const byId = new Map(graphqlArticles.map((article) => [String(article.documentId), article]));
  const differing: string[] = [];
  const formats = new Map<string, string>();
  for (const restArticle of restArticles) {
    const graphqlArticle = byId.get(String(restArticle.documentId));
    if (!graphqlArticle) continue;
    const a = JSON.stringify(digest(restArticle, true));
    const b = JSON.stringify(digest(graphqlArticle, true));
    if (a !== b) differing.push(`REST ${a}\n      GraphQL ${b}`);
    for (const [key, value] of Object.entries(graphqlArticle)) {
      if (!(key in restArticle) || isObject(value) || (Array.isArray(value) && key !== 'content')) continue;
      if (JSON.stringify(value) !== JSON.stringify(restArticle[key]) && !formats.has(key))
        formats.set(key, `${key}: REST ${JSON.stringify(restArticle[key])}, GraphQL ${JSON.stringify(value)}`);
    }
    const missing = Object.keys(restArticle).filter(
      (key) => !(key in graphqlArticle) && key !== 'id' && !formats.has(`missing ${key}`),
    );
    for (const key of missing) formats.set(`missing ${key}`, `${key}: in REST's answer only`);
  }
  if (differing.length > 0)
    problems.push(
      `${server} ${label}: ${differing.length} of ${restArticles.length} articles differ between REST and GraphQL, e.g.\n      ${differing.slice(0, 2).join('\n      ')}`,
    );
  if (formats.size > 0)
    problems.push(
      `note: ${server} ${label}: fields that differ between REST and GraphQL: ${[...formats.values()].join('; ')}`,
    );
  return problems;
}

/** Differences between Cairn's and Strapi's answers to one kind, by natural keys (documentIds differ). */
function compareServers(kind: string, cairn: Answer | undefined, strapi: Answer | undefined): string[] {
  if (!cairn || !strapi) return [];
  const cairnArticles = articlesOf(cairn);
  const strapiArticles = articlesOf(strapi);
  const strapiByTitle = new Map(strapiArticles.map((article) => [String(article.title), article]));
  const problems: string[] = [];
  const common = cairnArticles.filter((article) => strapiByTitle.has(String(article.title)));
  if (common.length !== cairnArticles.length || cairnArticles.length !== strapiArticles.length)
    problems.push(
      `note: ${kind}: Cairn answered ${cairnArticles.length} articles, Strapi ${strapiArticles.length}, ${common.length} in common ` +
        '(each server numbers the articles in the order its 8 concurrent seeding requests landed)',
    );
  const differing: string[] = [];
  const fields = new Map<string, string>();
  for (const article of common) {
    const theirs = strapiByTitle.get(String(article.title)) as Json;
    const a = JSON.stringify(digest(article, false));
    const b = JSON.stringify(digest(theirs, false));
    if (a !== b) differing.push(`Cairn  ${a}\n      Strapi ${b}`);
    for (const key of new Set([...Object.keys(article), ...Object.keys(theirs)])) {
      if (['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt'].includes(key) || fields.has(key)) continue;
      const ours = article[key];
      if (isObject(ours) || (Array.isArray(ours) && key !== 'content')) continue;
      if (JSON.stringify(ours) !== JSON.stringify(theirs[key]))
        fields.set(key, `${key}: Cairn ${JSON.stringify(ours)}, Strapi ${JSON.stringify(theirs[key])}`);
    }
  }
  if (differing.length > 0)
    problems.push(
      `${kind}: ${differing.length} of ${common.length} common articles differ between Cairn and Strapi, e.g.\n      ${differing.slice(0, 2).join('\n      ')}`,
    );
  if (fields.size > 0)
    problems.push(`note: ${kind}: fields that differ between Cairn and Strapi: ${[...fields.values()].join('; ')}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The table

interface ReportInput {
  readonly size: Parameters<typeof buildDataset>[0];
  readonly load: LoadOptions;
  readonly sides: readonly Side[];
  readonly rows: readonly Row[];
  readonly answers: ReadonlyMap<string, Answer>;
  readonly cairnStatements: ReadonlyMap<string, number>;
  readonly strapiStatements: ReadonlyMap<string, StrapiStatementCount> | undefined;
  readonly loadAverage: number;
  readonly loadAfter: number;
  readonly problems: readonly string[];
}

function report(input: ReportInput): string {
  const { size, load, sides, rows } = input;
  const round = (value: number, digits = 0) =>
    value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const figures = (result: LoadResult | undefined) => {
    if (!result) return ['n/a', 'n/a', 'n/a'];
    const failed = result.errors + result.non2xx;
    return [
      `${round(result.requestsPerSecond)}${failed > 0 ? ` (**${failed} failed**)` : ''}`,
      round(result.p50Ms, 1),
      round(result.p99Ms, 1),
    ];
  };
  const statements = (value: number | undefined) =>
    value === undefined ? 'n/a' : round(value, value % 1 === 0 ? 0 : 1);
  const restOf = (row: Row) => rows.find((other) => other.pair === row.pair && other.protocol === 'rest') as Row;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const header = [
    'kind',
    'Cairn req/s',
    'p50 ms',
    'p99 ms',
    'SQL/req',
    'Strapi req/s',
    'p50 ms',
    'p99 ms',
    'SQL/req',
    'Cairn/Strapi',
    'GraphQL/REST (Cairn)',
  ];
  const table = rows.map((row) =>
    line([
      row.kind.name,
      ...figures(row.cairn),
      statements(input.cairnStatements.get(row.kind.name)),
      ...figures(row.strapi),
      statements(input.strapiStatements?.get(row.kind.name)?.statements),
      row.strapi ? ratio(row.cairn.requestsPerSecond, row.strapi.requestsPerSecond) : 'n/a',
      row.protocol === 'graphql' ? ratio(row.cairn.requestsPerSecond, restOf(row).cairn.requestsPerSecond) : '',
    ]),
  );
  const graphqlRows = rows.filter((row) => row.protocol === 'graphql');
  const strapiRatios = graphqlRows
    .filter((row) => row.strapi && restOf(row).strapi)
    .map(
      (row) =>
        `${row.pair.label} ${ratio((row.strapi as LoadResult).requestsPerSecond, (restOf(row).strapi as LoadResult).requestsPerSecond)}`,
    );
  const transactions = input.strapiStatements
    ? [...input.strapiStatements.entries()]
        .map(([name, count]) => `${name} ${statements(count.transaction)}`)
        .join(', ')
    : '';
  const sizes = sides
    .map(
      (side) =>
        `${side.name} ${rows
          .map((row) => {
            const answer = input.answers.get(`${side.name} ${row.kind.name}`);
            return answer
              ? `${row.kind.name} ${round(answer.bytes / 1024, 1)} kB (${articlesOf(answer).length} articles)`
              : '';
          })
          .join(', ')}`,
    )
    .join('; ');
  const targets = graphqlRows.map((row) => {
    const value = row.cairn.requestsPerSecond / restOf(row).cairn.requestsPerSecond;
    return `${value >= 0.8 ? 'met    ' : 'NOT MET'}  ${row.kind.name} ≥ 0.8× ${restOf(row).kind.name}: ${value.toFixed(2)}×`;
  });
  return [
    `GraphQL against REST on SQLite, Cairn ${gitCommit()} beside Strapi 5.54 + @strapi/plugin-graphql 5.54.0, ` +
      `${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores; ${describeSize(size)} seeded through each server's REST API; ` +
      `autocannon ${load.connections} connections × ${load.seconds} s per kind (after ${load.warmupSeconds} s warm-up), ` +
      'each kind run twice per server (Cairn REST, GraphQL, Strapi REST, GraphQL, then backwards) and averaged.',
    '',
    line(header),
    line(header.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...table,
    '',
    ...(strapiRatios.length > 0 ? [`GraphQL/REST on Strapi: ${strapiRatios.join(', ')}.`] : []),
    ...(transactions
      ? [`Strapi's transaction statements per request (BEGIN/COMMIT, not in SQL/req): ${transactions}.`]
      : []),
    `Answer sizes: ${sizes}.`,
    `Seeding: ${sides.map((side) => `${side.name} ${side.seeded.seconds.toFixed(1)} s (start ${side.server.startSeconds.toFixed(1)} s)`).join(', ')}.`,
    `1-minute load average: ${input.loadAverage.toFixed(2)} when measuring began, ${input.loadAfter.toFixed(2)} at its end ` +
      `(${availableParallelism()} cores; above that, other work shared the CPU).`,
    ...input.problems.filter((problem) => problem.startsWith('note:')).map((note) => note.replace(/\n\s*/g, ' ')),
    input.problems.every((problem) => problem.startsWith('note:'))
      ? 'Answers: every answer 200 without errors; REST and GraphQL carried the same documents on each server.'
      : `Answers: ${input.problems.filter((problem) => !problem.startsWith('note:')).length} differences or problems, printed above the table.`,
    '',
    'Target (issue 19):',
    ...targets,
  ].join('\n');
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function log(message: string): void {
  process.stderr.write(`[graphql-bench] ${message}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `graphql bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
