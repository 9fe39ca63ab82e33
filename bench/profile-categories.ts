/**
 * Splits a V8 CPU profile (`node --cpu-prof`) of a Cairn server into what a read spends its CPU on
 * (SQLite, the document layer, GraphQL's parse, validate and execution, the scalars' serialize,
 * the response, garbage collection), in milliseconds per request when given the number of
 * requests the profile served. Each sample goes to the innermost frame on its stack that belongs
 * to a category (so SQLite called from a resolver counts as SQLite); samples before the first
 * request (start-up) are left out. Built for the unbundled build (`dist/main.js`), whose file
 * names tell the layers apart; see BENCHMARKS.md, "GraphQL against REST and Strapi 5.54".
 *
 *   node --import jiti/register bench/profile-categories.ts <file.cpuprofile> [--requests N]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const OTHER = 'other (HTTP, fastify, body parsing, routing, logging)';
const CATEGORIES: readonly (readonly [string, (frame: CallFrame) => boolean])[] = [
  ['SQLite (statements run and rows read)', (f) => f.url.includes('/db/sqlite-database')],
  ['GraphQL scalars: serialize', (f) => f.url.includes('/graphql/graphql-scalars')],
  ['graphql-js: validate', (f) => f.functionName === 'validate' && f.url.includes('graphql/validation/validate')],
  ['graphql-js: parse', (f) => f.functionName === 'parse' && f.url.includes('graphql/language/parser')],
  [
    'graphql-js: execute (fields resolved and completed one by one)',
    (f) => /node_modules\/graphql\/(execution|jsutils|type)\//.test(f.url),
  ],
  ['Cairn GraphQL layer (selection → populate, resolvers, route)', (f) => /\/dist\/graphql\//.test(f.url)],
  [
    'documents: query, permissions, populate plan, SQL, row shaping',
    (f) => /\/dist\/(documents|shape|plan|sql|query|access|core)\//.test(f.url),
  ],
  ['response: JSON.stringify and write', (f) => f.functionName === 'sendResponse'],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
];

const { values, positionals } = parseArgs({ options: { requests: { type: 'string' } }, allowPositionals: true });
const file = positionals[0];
if (!file) {
  process.stderr.write('usage: profile-categories.ts <file.cpuprofile> [--requests N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

function* stack(id: number): Generator<CallFrame> {
  for (let current: number | undefined = id; current !== undefined; current = parents.get(current))
    yield (nodes.get(current) as ProfileNode).callFrame;
}
const servesRequest = (id: number) =>
  [...stack(id)].some((frame) => frame.functionName === 'handler' && frame.url.includes('/http/create-server'));

let busy = 0;
let startup = 0;
let started = false;
const spent = new Map<string, number>();
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  const leaf = (nodes.get(id) as ProfileNode).callFrame;
  if (leaf.functionName === '(idle)' || leaf.functionName === '(program)') return;
  if (!started && servesRequest(id)) started = true;
  if (!started) {
    startup += delta;
    return;
  }
  busy += delta;
  let category = OTHER;
  search: for (const frame of stack(id))
    for (const [name, test] of CATEGORIES)
      if (test(frame)) {
        category = name;
        break search;
      }
  spent.set(category, (spent.get(category) ?? 0) + delta);
});

const requests = values.requests === undefined ? undefined : Number(values.requests);
const ms = (micros: number) => (requests ? (micros / 1000 / requests).toFixed(2) : (micros / 1000).toFixed(0));
process.stdout.write(
  `${file}: busy ${(busy / 1e6).toFixed(1)} s after the first request (start-up before it, ${(startup / 1e6).toFixed(2)} s, left out)` +
    `${requests ? `, ${requests} requests: ${ms(busy)} ms of CPU per request` : ''}\n\n` +
    `| category | ${requests ? 'ms per request' : 'ms'} | share |\n|---|---:|---:|\n`,
);
for (const name of [...CATEGORIES.map(([name]) => name), OTHER]) {
  const value = spent.get(name) ?? 0;
  process.stdout.write(`| ${name} | ${ms(value)} | ${((100 * value) / busy).toFixed(1)}% |\n`);
}
