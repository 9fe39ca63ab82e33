import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import Table from 'cli-table3';
import { countItem, stageTotals, type StageTotals, type TransferStage } from './transfer-types.js';

/** Follows a transfer: a progress bar per stage on a terminal, the counts for the summary, the warnings. */
export interface TransferProgress {
  /** Starts a stage's bar; `total` when known beforehand (items). */
  start(stage: TransferStage, total?: number): void;
  /** Counts one item of a stage (`key`: its type uid, or an asset's extension). */
  tick(stage: TransferStage, key: string | undefined, bytes: number): void;
  /** A warning line, printed above the bars. */
  warn(message: string): void;
  /** Stops the bars (the summary table can then be printed). */
  stop(): void;
  /** Per stage, in the order they ran. */
  readonly totals: ReadonlyMap<TransferStage, StageTotals>;
}

/**
 * Progress on `stream` (stderr): with a terminal, one cli-progress bar per stage (`entities
 * [████░░] 1200/2000 | 1.4 MB`); without one, nothing but the warnings. Counts are kept either way.
 */
export function createTransferProgress(stream: NodeJS.WriteStream): TransferProgress {
  const tty = stream.isTTY === true;
  const multibar = tty
    ? new MultiBar(
        {
          stream,
          clearOnComplete: false,
          hideCursor: true,
          format: ' {stage} |{bar}| {value}/{total} | {size}',
          autopadding: true,
        },
        Presets.shades_classic,
      )
    : null;
  const bars = new Map<TransferStage, { bar: SingleBar | null; known: boolean }>();
  const totals = new Map<TransferStage, StageTotals>();
  return {
    totals,
    start(stage, total) {
      totals.set(stage, stageTotals());
      const bar = multibar?.create(total ?? 0, 0, { stage: stage.padEnd(13), size: readableBytes(0) }) ?? null;
      bars.set(stage, { bar, known: total !== undefined });
    },
    tick(stage, key, bytes) {
      const stageTotal = totals.get(stage) ?? stageTotals();
      totals.set(stage, stageTotal);
      countItem(stageTotal, key ?? '', bytes);
      const entry = bars.get(stage);
      if (!entry?.bar) return;
      if (!entry.known) entry.bar.setTotal(stageTotal.count);
      entry.bar.update(stageTotal.count, { size: readableBytes(stageTotal.bytes) });
    },
    warn(message) {
      if (multibar) multibar.log(`warn: ${message}\n`);
      else stream.write(`warn: ${message}\n`);
    },
    stop() {
      multibar?.stop();
    },
  };
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `1536` → `1.5 KB`, as Strapi's summary prints sizes. */
export function readableBytes(bytes: number): string {
  if (!bytes) return '0';
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${(bytes / 1024 ** i).toFixed(1)} ${(UNITS[i] ?? 'B').padStart(2)}`;
}

/**
 * The table Strapi prints at the end of a transfer: one row per stage (count and size), a row per
 * type under it (`-- api::article.article`, `-- .jpg`), and the total.
 *
 *   ┌──────────────────────────┬───────┬────────────┐
 *   │ Type                     │ Count │ Size       │
 *   │ entities                 │    27 │    22.3 KB │
 *   │ -- api::article.article  │     9 │ (  14.0 KB)│ …
 */
export function summaryTable(totals: ReadonlyMap<TransferStage, StageTotals>): string {
  const table = new Table({ head: ['Type', 'Count', 'Size'], style: { head: [], border: [] } });
  let count = 0;
  let bytes = 0;
  for (const [stage, total] of totals) {
    if (stage === 'schemas') continue;
    table.push([
      stage,
      { hAlign: 'right', content: total.count },
      { hAlign: 'right', content: readableBytes(total.bytes) },
    ]);
    count += total.count;
    bytes += total.bytes;
    for (const key of [...total.aggregates.keys()].sort()) {
      const aggregate = total.aggregates.get(key);
      if (!aggregate || key === '') continue;
      table.push([
        `-- ${key}`,
        { hAlign: 'right', content: aggregate.count },
        { hAlign: 'right', content: `(${readableBytes(aggregate.bytes)})` },
      ]);
    }
  }
  table.push(['Total', { hAlign: 'right', content: count }, { hAlign: 'right', content: readableBytes(bytes) }]);
  return table.toString();
}
