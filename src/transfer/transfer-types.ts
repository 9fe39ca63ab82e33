/**
 * The records of Strapi 5's data-transfer archive, as its JSONL files hold them (one JSON value a
 * line) and as `strapi export` 5.54 writes them:
 *
 *   entities:      {"type":"api::article.article","id":1,"data":{"documentId":"…","title":"…",…,"seo":{"id":1,…}}}
 *   links:         {"kind":"relation.basic","relation":"manyToMany",
 *                   "left":{"type":"api::article.article","field":"tags","ref":1,"pos":1},
 *                   "right":{"type":"api::tag.tag","field":"articles","ref":3,"pos":1}}
 *   configuration: {"type":"core-store","value":{"id":1,"key":"…","value":{…},"type":"object","environment":null,"tag":null}}
 *   assets/metadata/<hash><ext>.json: the `files` row (or one of its formats, with `type`, `mainHash` and the row's `id`)
 */

/** The stages of a transfer, in the order an archive holds them. */
export type TransferStage = 'schemas' | 'entities' | 'assets' | 'links' | 'configuration';

/** The JSONL stages (each in `<stage>/<stage>_00001.jsonl`, `_00002` …). */
export type JsonlStage = 'schemas' | 'entities' | 'links' | 'configuration';

/** One row of a content type: its row id in the source and its attributes (components nested). */
export interface TransferEntity {
  readonly type: string;
  readonly id: number;
  readonly data: Readonly<Record<string, unknown>>;
}

/** One end of a link: the model, the row (a row id, or a documentId for i18n's `localizations`), the attribute and the position. */
export interface LinkEnd {
  readonly type: string;
  readonly ref: number | string;
  readonly field?: string;
  readonly pos?: number;
}

/** One relation between two rows (`left` owns the relation). */
export interface TransferLink {
  readonly kind: 'relation.basic' | 'relation.circular' | 'relation.morph';
  readonly relation: string;
  readonly left: LinkEnd;
  readonly right: LinkEnd;
}

/** One configuration row: a core-store entry (value parsed) or a webhook. */
export interface ConfigurationItem {
  readonly type: 'core-store' | 'webhook';
  readonly value: Readonly<Record<string, unknown>>;
}

/** The sidecar of an asset: the file row (or the format's entry, with `type` and `mainHash`). */
export interface AssetMetadata {
  readonly id: number;
  readonly name: string;
  readonly hash: string;
  readonly ext?: string | null;
  readonly mime: string;
  readonly size: number;
  readonly url: string;
  /** The format's name (`thumbnail`, `small` …) for a derived image; absent for the original. */
  readonly type?: string | null;
  readonly mainHash?: string | null;
  readonly [key: string]: unknown;
}

/** `metadata.json`. */
export interface ArchiveMetadata {
  readonly createdAt: string;
  readonly strapi: { readonly version: string };
  readonly [key: string]: unknown;
}

/** Counted items and bytes of one stage, and per type (the summary table's rows). */
export interface StageTotals {
  count: number;
  bytes: number;
  readonly aggregates: Map<string, { count: number; bytes: number }>;
}

/** A new, empty StageTotals. */
export function stageTotals(): StageTotals {
  return { count: 0, bytes: 0, aggregates: new Map() };
}

/** Adds one item of `bytes` under `key` (a type uid, an asset's extension). */
export function countItem(totals: StageTotals, key: string, bytes: number): void {
  totals.count += 1;
  totals.bytes += bytes;
  const aggregate = totals.aggregates.get(key) ?? { count: 0, bytes: 0 };
  aggregate.count += 1;
  aggregate.bytes += bytes;
  totals.aggregates.set(key, aggregate);
}
