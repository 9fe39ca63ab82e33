import type { Executor } from '../db/database.js';
import { MEDIA_MORPH_TABLE } from '../schema/tables.js';
import type { RowValues } from '../plan/plan-types.js';
import { eq, rowOf } from '../plan/simple-plans.js';
import { relationLink } from '../schema/links.js';
import { getModel, type Schema } from '../schema/types.js';
import { compileInsert, compileUpdate } from '../sql/compile-write.js';
import type { Dialect } from '../sql/dialect.js';
import type { IdMap } from './id-map.js';
import { TransferError } from './transfer-error.js';
import type { TransferLink } from './transfer-types.js';

const ROWS_PER_INSERT = 1_000;

/** What became of the links: written, or skipped because an end was not transferred (as Strapi warns). */
export interface LinkResults {
  written: number;
  skipped: number;
}

/**
 * Writes archive links into the project's link tables, with the rows' new ids and the archive's
 * positions in the order columns (`pos` of the left end → the owner's order column, of the right
 * end → the inverse order column):
 *
 * - a relation through a join table (`articles_tags_lnk`): one row per link, batched per table;
 * - a join column (`created_by_id`): an UPDATE of the owner row;
 * - media (`plugin::upload.file` `related`): a `files_related_mph` row (file, related row and
 *   type, field, order);
 * - i18n's `localizations` (a documentId join column Strapi lists for every row): nothing to do,
 *   the rows already carry their documentId.
 *
 * A link whose row on either end was not transferred is skipped and counted, as Strapi does; an
 * attribute the project does not have (EE-only ones) is skipped.
 */
export class LinkWriter {
  private readonly pending = new Map<string, RowValues[]>();
  readonly results: LinkResults = { written: 0, skipped: 0 };

  constructor(
    private readonly exec: Executor,
    private readonly dialect: Dialect,
    private readonly schema: Schema,
    private readonly ids: IdMap,
  ) {}

  private mapped(type: string, ref: number | string): number | undefined {
    const id = typeof ref === 'number' ? ref : Number(ref);
    return Number.isFinite(id) ? this.ids.get(type, id) : undefined;
  }

  /** Writes (or queues) one link. */
  async add(link: TransferLink): Promise<void> {
    const { left, right } = link;
    if (left.field === 'localizations') return;
    const model = getModel(this.schema, left.type);
    const attribute = left.field === undefined ? undefined : model?.attributes.get(left.field);
    if (!model || !attribute || attribute.type !== 'relation') return;
    const source = this.mapped(left.type, left.ref);
    const target = this.mapped(right.type, right.ref);
    if (source === undefined || target === undefined) {
      this.results.skipped += 1;
      return;
    }
    if (link.kind === 'relation.morph') {
      if (model.uid !== 'plugin::upload.file' || attribute.name !== 'related') return;
      await this.queue(
        MEDIA_MORPH_TABLE,
        rowOf({
          file_id: [source, 'integer'],
          related_id: [target, 'integer'],
          related_type: [right.type, 'string'],
          field: [right.field ?? null, 'string'],
          order: [right.pos ?? null, 'float'],
        }),
      );
      return;
    }
    const layout = relationLink(this.schema, model, attribute);
    if (!layout) return;
    if (layout.kind === 'joinColumn') {
      await this.exec.run(
        compileUpdate(this.dialect, {
          table: model.table,
          set: rowOf({ [layout.column]: [target, 'integer'] }),
          where: eq('id', source, 'integer'),
        }),
      );
      this.results.written += 1;
      return;
    }
    if (!layout.owner) return;
    const columns: Record<string, readonly [unknown, 'integer' | 'float']> = {
      [layout.sourceColumn]: [source, 'integer'],
      [layout.targetColumn]: [target, 'integer'],
    };
    if (layout.orderColumn !== undefined) columns[layout.orderColumn] = [left.pos ?? null, 'float'];
    if (layout.inverseOrderColumn !== undefined) columns[layout.inverseOrderColumn] = [right.pos ?? null, 'float'];
    await this.queue(layout.table, rowOf(columns));
  }

  private async queue(table: string, row: RowValues): Promise<void> {
    const rows = this.pending.get(table) ?? [];
    rows.push(row);
    this.pending.set(table, rows);
    if (rows.length >= ROWS_PER_INSERT) await this.flush(table);
  }

  private async flush(table: string): Promise<void> {
    const rows = this.pending.get(table);
    if (!rows || rows.length === 0) return;
    this.pending.set(table, []);
    try {
      await this.exec.insert(compileInsert(this.dialect, { table, rows }), rows.length);
    } catch (error) {
      throw new TransferError(`writing links into ${table}: ${(error as Error).message}`);
    }
    this.results.written += rows.length;
  }

  /** Writes every queued row. */
  async finish(): Promise<void> {
    for (const table of this.pending.keys()) await this.flush(table);
  }
}
