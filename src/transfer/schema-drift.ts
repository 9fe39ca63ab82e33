import { getModel, type Schema } from '../schema/types.js';
import type { SchemaDiffs } from './compare-schemas.js';
import { modelData } from './model-columns.js';
import type { TransferEntity, TransferLink } from './transfer-types.js';

/**
 * What an import forced past schema differences (`--force`, as `strapi import --force`) leaves out
 * and fills in, counted while the archive is read: entities of a type only the archive has are
 * left out, values of an attribute only the archive has are dropped, and an attribute only the
 * project has takes its default (null without one), as Strapi's query engine creates the rows.
 */
export class SchemaDrift {
  /** Types only the archive has → entities left out. */
  private readonly droppedTypes = new Map<string, number>();
  /** `uid` → attributes only the archive has → values dropped. */
  private readonly droppedAttributes = new Map<string, Map<string, number>>();
  /** `uid` → attributes only the project has → rows that took the default. */
  private readonly defaulted = new Map<string, Map<string, number>>();
  private droppedLinks = 0;

  constructor(
    private readonly schema: Schema,
    diffs: SchemaDiffs,
  ) {
    for (const [uid, list] of diffs) {
      for (const diff of list) {
        if (diff.path.length === 0 && diff.kind === 'deleted') this.droppedTypes.set(uid, 0);
        if (diff.path.length !== 2 || diff.path[0] !== 'attributes' || diff.kind === 'modified') continue;
        const into = diff.kind === 'deleted' ? this.droppedAttributes : this.defaulted;
        const counts = into.get(uid) ?? new Map<string, number>();
        into.set(uid, counts.set(diff.path[1] as string, 0));
      }
    }
  }

  /** Whether entities of `type` are left out (the archive declares the type, the project has none). */
  dropsType(type: string): boolean {
    return this.droppedTypes.has(type);
  }

  /** Counts an entity left out, or the values of it that are dropped or defaulted. */
  countEntity(entity: TransferEntity): void {
    const dropped = this.droppedTypes.get(entity.type);
    if (dropped !== undefined) this.droppedTypes.set(entity.type, dropped + 1);
    const model = this.schema.contentTypes.get(entity.type);
    if (!model) return;
    for (const { model: item, data } of modelData(this.schema, model, entity.data)) {
      for (const [name, count] of this.droppedAttributes.get(item.uid) ?? []) {
        if (data[name] !== undefined && data[name] !== null) this.droppedAttributes.get(item.uid)?.set(name, count + 1);
      }
      for (const [name, count] of this.defaulted.get(item.uid) ?? []) {
        if (data[name] === undefined) this.defaulted.get(item.uid)?.set(name, count + 1);
      }
    }
  }

  /** Whether a link is left out: an end of a type, or its owner's attribute, the project lacks. */
  dropsLink({ left, right }: TransferLink): boolean {
    if (this.droppedTypes.has(left.type) || this.droppedTypes.has(right.type)) return true;
    return left.field !== undefined && this.droppedAttributes.get(left.type)?.has(left.field) === true;
  }

  /** Counts a link if it is left out. */
  countLink(link: TransferLink): void {
    if (this.dropsLink(link)) this.droppedLinks += 1;
  }

  /**
   * The report, one line each: `left out: 2 api::ghost.ghost entities (a type the project does not
   * have)`, `left out: 9 values of api::article.article.subtitle (an attribute the project does not
   * have)`, `defaulted: api::article.article.views on 9 rows, to 0 (an attribute the archive does not have)`.
   */
  report(): string[] {
    const lines: string[] = [];
    for (const [uid, count] of this.droppedTypes) {
      lines.push(`left out: ${count} ${uid} entities (a type the project does not have)`);
    }
    for (const [uid, counts] of this.droppedAttributes) {
      for (const [name, count] of counts)
        lines.push(`left out: ${count} values of ${uid}.${name} (an attribute the project does not have)`);
    }
    if (this.droppedLinks > 0) {
      lines.push(`left out: ${this.droppedLinks} links of types or attributes the project does not have`);
    }
    for (const [uid, counts] of this.defaulted) {
      const model = getModel(this.schema, uid);
      for (const [name, count] of counts) {
        const attribute = model?.attributes.get(name);
        const fallback = attribute && 'default' in attribute ? attribute.default : undefined;
        const to = fallback === undefined ? 'left empty' : `set to its default ${JSON.stringify(fallback)}`;
        lines.push(`defaulted: ${uid}.${name} ${to} on ${count} rows (an attribute the archive does not have)`);
      }
    }
    return lines;
  }
}
