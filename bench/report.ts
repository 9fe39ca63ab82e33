import type { LoadResult } from './load.js';

/** One row of the results table. */
export interface KindFigures {
  readonly name: string;
  readonly cairn: LoadResult;
  readonly statements: number | undefined;
  readonly limit: LoadResult | undefined;
}

/** Everything a run measured. */
export interface BenchFigures {
  readonly database: string;
  readonly commit: string;
  readonly date: string;
  readonly cores: number;
  readonly connections: number;
  readonly seconds: number;
  readonly dataset: { articles: number; authors: number; tags: number; seedSeconds: number };
  readonly kinds: readonly KindFigures[];
  readonly cairnStart: { firstSeconds: number; restartSeconds: number; idleMb: number | null; peakMb: number | null };
  readonly limitStart: { seconds: number; idleMb: number | null; peakMb: number | null } | undefined;
}

const round = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

/** The results as a Markdown table plus start and memory lines (what BENCHMARKS.md holds). */
export function formatReport(figures: BenchFigures): string {
  const withLimit = figures.kinds.some((kind) => kind.limit);
  const header = [
    'request',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'SQL/req',
    ...(withLimit ? ['limit req/s', 'ratio'] : []),
  ];
  const rows = figures.kinds.map((kind) => {
    const errors = kind.cairn.errors + kind.cairn.non2xx;
    const ratio = kind.limit ? `${(kind.cairn.requestsPerSecond / kind.limit.requestsPerSecond).toFixed(2)}×` : '';
    return [
      kind.name,
      round(kind.cairn.requestsPerSecond),
      round(kind.cairn.p50Ms, 1),
      round(kind.cairn.p99Ms, 1),
      errors === 0 ? '0' : `**${errors}**`,
      kind.statements === undefined ? '' : round(kind.statements, kind.statements % 1 === 0 ? 0 : 1),
      ...(withLimit ? [kind.limit ? round(kind.limit.requestsPerSecond) : '', ratio] : []),
    ];
  });
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const mb = (value: number | null) => (value === null ? 'n/a' : `${value} MB`);
  const { cairnStart, limitStart, dataset } = figures;
  return [
    `Cairn ${figures.commit} on ${figures.database}, ${figures.date}, ${figures.cores} cores; ` +
      `${dataset.articles} articles / ${dataset.authors} authors / ${dataset.tags} tags seeded through the API in ${dataset.seedSeconds.toFixed(1)} s; ` +
      `autocannon ${figures.connections} connections, ${figures.seconds} s per request kind.`,
    '',
    line(header),
    line(header.map((cell, i) => (i === 0 ? '---' : '---:'))),
    ...rows.map(line),
    '',
    `Cold start (spawn → first 200 of GET /api/articles): ${cairnStart.restartSeconds.toFixed(2)} s on the seeded database (median of 5), ` +
      `${cairnStart.firstSeconds.toFixed(2)} s on an empty one (creates the tables).`,
    `RSS: idle ${mb(cairnStart.idleMb)}, peak ${mb(cairnStart.peakMb)}.`,
    ...(limitStart
      ? [
          `Limit server: start ${limitStart.seconds.toFixed(2)} s, RSS idle ${mb(limitStart.idleMb)}, peak ${mb(limitStart.peakMb)}.`,
        ]
      : []),
  ].join('\n');
}

/** The targets, each met or not, for the figures of a SQLite run. */
export function formatTargets(figures: BenchFigures): string {
  const byName = new Map(figures.kinds.map((kind) => [kind.name, kind]));
  const checks: string[] = [];
  const check = (label: string, met: boolean, value: string) =>
    checks.push(`${met ? 'met    ' : 'NOT MET'}  ${label}: ${value}`);
  for (const kind of figures.kinds) {
    if (!kind.limit) continue;
    const ratio = kind.cairn.requestsPerSecond / kind.limit.requestsPerSecond;
    // Cached reads (issue 21): ≥ 5× the limit server's uncached answer to the same request.
    const goal = kind.name.startsWith('cached') ? 5 : kind.name.startsWith('one document') ? 0.6 : 0.8;
    check(`${kind.name} ≥ ${goal}× limit`, ratio >= goal, `${ratio.toFixed(2)}×`);
  }
  const create = byName.get('create (relations + components)');
  if (create)
    check('creates ≥ 200/s', create.cairn.requestsPerSecond >= 200, `${round(create.cairn.requestsPerSecond)}/s`);
  const update = byName.get('update one field');
  if (update)
    check('updates ≥ 150/s', update.cairn.requestsPerSecond >= 150, `${round(update.cairn.requestsPerSecond)}/s`);
  check(
    'cold start < 0.5 s',
    figures.cairnStart.restartSeconds < 0.5,
    `${figures.cairnStart.restartSeconds.toFixed(2)} s`,
  );
  const idle = figures.cairnStart.idleMb;
  check('idle RSS < 80 MB', idle !== null && idle < 80, idle === null ? 'n/a' : `${idle} MB`);
  return checks.join('\n');
}
