/**
 * Cold start and idle memory of one or more builds, alternated (issue 21):
 *
 *   npm run build && node --import jiti/register bench/cold-start.ts [--build <dir>]… [--project <dir>] [--starts 7] [--rounds 2] [--limit] [--typescript]
 *
 * A build is a folder holding `bin/cairn.js` and its `dist/` (this checkout when no --build is
 * given; copy another commit's `bin`, `dist`, `package.json` and a `node_modules` link to compare).
 * Each start spawns `node <build>/bin/cairn.js start --dir <project>` (a copy of examples/blog on
 * SQLite unless --project), polls `GET /api/articles` every 3 ms until the first 200 (wall time),
 * reads the process's CPU time (utime + stime, /proc/<pid>/stat) at that moment, waits 2 s and
 * reads its resident memory (VmRSS). Prints the median of each build per round.
 *
 * `--limit` adds the limit server (bench/limit-server.mjs, node:http and better-sqlite3 on the
 * same database file) to the rotation, measured the same way: the floor of a Node server's start
 * on this machine at this moment, which moves with the machine as much as Cairn's figures do.
 *
 * `--typescript` adds, per build, the same project as a TypeScript one (its config files as
 * `config/*.ts` with types, a `tsconfig.json` as create-strapi-app writes it): started with the
 * transpiled files kept from an earlier start (`TS, cached`), and with none (`TS, first run`: the
 * transpiled-files cache emptied before each start, the V8 code cache kept).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    build: { type: 'string', multiple: true },
    project: { type: 'string' },
    starts: { type: 'string', default: '7' },
    rounds: { type: 'string', default: '2' },
    limit: { type: 'boolean', default: false },
    typescript: { type: 'boolean', default: false },
  },
});
const builds = values.build?.map((dir) => resolve(dir)) ?? [root];
const project = values.project ? resolve(values.project) : mkdtempSync(join(tmpdir(), 'cairn-cold-start-'));
if (!values.project)
  cpSync(join(root, 'examples/blog'), project, { recursive: true, filter: (p) => !p.endsWith('.tmp') });

/** The compile caches of every start of this run (a folder of its own, emptied at the end). */
const compileCache = mkdtempSync(join(tmpdir(), 'cairn-cold-start-cache-'));
/** The project as a TypeScript one: config/*.ts with a type annotation each, and a tsconfig.json. */
const typescriptProject = values.typescript ? mkdtempSync(join(tmpdir(), 'cairn-cold-start-ts-')) : null;
if (typescriptProject !== null) {
  cpSync(project, typescriptProject, { recursive: true, filter: (p) => !p.endsWith('.tmp') && !p.endsWith('.env') });
  for (const file of readdirSync(join(typescriptProject, 'config')).filter((name) => name.endsWith('.js'))) {
    const path = join(typescriptProject, 'config', file);
    const source = readFileSync(path, 'utf8').replace(/^module\.exports = /m, 'const config: unknown = ');
    writeFileSync(path.replace(/\.js$/, '.ts'), `${source}\nexport default config;\n`);
    rmSync(path);
  }
  writeFileSync(
    join(typescriptProject, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'CommonJS', target: 'ES2019', strict: true, outDir: 'dist', rootDir: '.' },
    }),
  );
}

/** One kind of start in the rotation: a build (or the limit server) on a project, with or without its transpiled files kept. */
interface Variant {
  readonly label: string;
  readonly build: string;
  readonly project: string;
  readonly freshTranspile: boolean;
}

interface Start {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly rssMb: number;
}

const TICK_MS = 10;
const cpuMsOf = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};
const rssMbOf = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The rotation's name for the limit server. */
const LIMIT = 'limit server';

async function start({ build, project, freshTranspile }: Variant, port: number): Promise<Start> {
  if (freshTranspile) rmSync(join(compileCache, 'transpiled'), { recursive: true, force: true });
  const started = performance.now();
  // The limit server opens the database file the builds' first starts created (read-only), and
  // takes better-sqlite3 from this checkout (its working directory).
  const args =
    build === LIMIT
      ? [join(root, 'bench/limit-server.mjs'), '--db', join(project, '.tmp/data.db'), '--port', String(port)]
      : [join(build, 'bin/cairn.js'), 'start', '--dir', project];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_CLIENT: 'sqlite',
      CAIRN_COMPILE_CACHE: compileCache,
    },
    stdio: 'ignore',
  });
  const pid = child.pid as number;
  try {
    for (;;) {
      const response = await fetch(`http://127.0.0.1:${port}/api/articles`).catch(() => null);
      if (response) await response.arrayBuffer();
      if (response?.status === 200) break;
      if (child.exitCode !== null) throw new Error(`${build}: the server exited (${child.exitCode})`);
      await sleep(3);
    }
    const wallMs = performance.now() - started;
    const cpuMs = cpuMsOf(pid);
    await sleep(2000);
    return { wallMs, cpuMs, rssMb: rssMbOf(pid) };
  } finally {
    child.kill('SIGINT');
    await new Promise((done) => child.once('exit', done));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const variants: Variant[] = builds.flatMap((build) => [
  { label: build, build, project, freshTranspile: false },
  ...(typescriptProject === null
    ? []
    : [
        { label: `${build} (TS, cached)`, build, project: typescriptProject, freshTranspile: false },
        { label: `${build} (TS, first run)`, build, project: typescriptProject, freshTranspile: true },
      ]),
]);
if (values.limit) variants.push({ label: LIMIT, build: LIMIT, project, freshTranspile: false });
// A first start per variant warms the database file, the disk cache and the compile caches; it is not counted.
for (const variant of variants) if (variant.build !== LIMIT) await start(variant, 4100);
console.log('| build | round | first 200 (median ms) | CPU to first 200 (median ms) | idle RSS (median MB) |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const variant of variants) {
    const starts: Start[] = [];
    for (let n = 0; n < Number(values.starts); n++) starts.push(await start(variant, 4101 + n));
    console.log(
      `| ${variant.label} | ${round} | ${median(starts.map((s) => s.wallMs)).toFixed(0)} | ${median(starts.map((s) => s.cpuMs))} | ${median(starts.map((s) => s.rssMb)).toFixed(1)} |`,
    );
  }
}
if (!values.project) rmSync(project, { recursive: true, force: true });
if (typescriptProject !== null) rmSync(typescriptProject, { recursive: true, force: true });
rmSync(compileCache, { recursive: true, force: true });
