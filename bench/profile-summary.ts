/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`) of a Cairn server: self time by source file and
 * by function, idle time left out, as percentages of busy time.
 *
 *   node --import jiti/register bench/profile-summary.ts <file.cpuprofile> [--top 25]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' } },
  allowPositionals: true,
});
const file = positionals[0];
if (!file) {
  process.stderr.write('usage: profile-summary.ts <file.cpuprofile> [--top N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const byFile = new Map<string, number>();
const byFunction = new Map<string, number>();
let busy = 0;
profile.samples.forEach((sample, index) => {
  const frame = nodes.get(sample)?.callFrame;
  const delta = profile.timeDeltas[index] ?? 0;
  if (!frame || frame.functionName === '(idle)') return;
  busy += delta;
  const source = shortSource(frame.url);
  byFile.set(source, (byFile.get(source) ?? 0) + delta);
  const name = `${frame.functionName || '(anonymous)'} ${source}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
});

const top = Number(values.top);
const table = (title: string, totals: Map<string, number>) =>
  [
    `| ${title} | share of busy time |`,
    '|---|---:|',
    ...[...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, value]) => `| ${key} | ${((100 * value) / busy).toFixed(1)}% |`),
  ].join('\n');
process.stdout.write(
  `busy ${(busy / 1000).toFixed(0)} ms\n\n${table('source', byFile)}\n\n${table('function (self time)', byFunction)}\n`,
);

/** `dist/sql/compile-read.js`, `fastify` (a package), `node:internal/…`, or `(native)`. */
function shortSource(url: string): string {
  if (!url) return '(native)';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1] as string;
  const local = /\/(dist|src|bench)\/(.*)$/.exec(url);
  return local ? `${local[1]}/${local[2]}` : url.replace(/^file:\/\//, '');
}
