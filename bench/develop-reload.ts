/**
 * Save-to-served time of `cairn develop` (issue 40):
 *
 *   npm run build && node --import jiti/register bench/develop-reload.ts [--project <dir>] [--saves 7] [--port 41900]
 *
 * Starts `node bin/cairn.js develop` on a copy of the project (examples/blog on SQLite unless
 * --project), then, --saves times, adds a string attribute `benchN` to the tag type's schema.json
 * (written to a temporary file renamed over it, as editors save) and polls
 * `GET /api/tags?fields[0]=benchN` every 5 ms until it answers 200 instead of 400: the time from
 * the rename to that answer. Prints each save, then the median and the slowest, and the server's
 * own "reloaded in N ms" lines (loading the project and building its app).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    project: { type: 'string', default: join(root, 'examples/blog') },
    saves: { type: 'string', default: '7' },
    port: { type: 'string', default: '41900' },
  },
});
const SCHEMA = 'src/api/tag/content-types/tag/schema.json';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-develop-'));
cpSync(values.project, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
const base = `http://127.0.0.1:${values.port}`;
const child = spawn(process.execPath, [join(root, 'bin/cairn.js'), 'develop', '--dir', dir], {
  env: { ...process.env, PORT: values.port, HOST: '127.0.0.1', LOG_LEVEL: 'info', CAIRN_LOG_FORMAT: 'json' },
});
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));
const status = (path: string) =>
  fetch(`${base}${path}`).then(
    async (answer) => (await answer.arrayBuffer(), answer.status),
    () => 0,
  );

try {
  for (const deadline = Date.now() + 60_000; (await status('/_health')) !== 204; await sleep(50)) {
    if (Date.now() > deadline) throw new Error(`cairn develop did not start:\n${output}`);
  }
  const times: number[] = [];
  for (let save = 1; save <= Number(values.saves); save++) {
    const attribute = `bench${save}`;
    const schema = JSON.parse(readFileSync(join(dir, SCHEMA), 'utf8')) as { attributes: Record<string, unknown> };
    schema.attributes[attribute] = { type: 'string' };
    writeFileSync(join(dir, `${SCHEMA}.saving`), JSON.stringify(schema, null, 2));
    const saved = performance.now();
    renameSync(join(dir, `${SCHEMA}.saving`), join(dir, SCHEMA));
    while ((await status(`/api/tags?fields[0]=${attribute}`)) !== 200) {
      if (performance.now() - saved > 30_000) throw new Error(`${attribute} not served after 30 s:\n${output}`);
      await sleep(5);
    }
    times.push(performance.now() - saved);
    console.log(`save ${save}: served after ${Math.round(times.at(-1) as number)} ms`);
    await sleep(500);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `median ${Math.round(sorted[Math.floor(sorted.length / 2)] as number)} ms, slowest ${Math.round(sorted.at(-1) as number)} ms`,
  );
  const reloads = [...output.matchAll(/reloaded in (\d+) ms/g)].map((match) => match[1]);
  console.log(`the server's "reloaded in": ${reloads.join(', ')} ms`);
} finally {
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  rmSync(dir, { recursive: true, force: true });
}
