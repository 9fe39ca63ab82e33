import type { FilterNode, SortTerm } from './query-types.js';

/**
 * What to populate under one attribute. Relation, media and component nodes describe their
 * target model; a dynamic zone lists a fragment per component it returns.
 */
export type PopulateNode = TargetPopulateNode | DynamicZonePopulateNode;

/** Where a populated attribute is written in its parent: its own name unless `key` says otherwise. */
interface PopulateKey {
  /** The key the entries are written under (GraphQL: the field's alias); the attribute's name when absent. */
  readonly key?: string;
}

/** Entries `start + 1 … start + limit` of each parent's to-many attribute (`limit: null`: no upper bound). */
export interface PopulateWindow {
  readonly start: number;
  readonly limit: number | null;
}

export interface TargetPopulateNode extends PopulateKey {
  readonly kind: 'relation' | 'media' | 'component' | 'localizations';
  readonly attribute: string;
  /** A page of entries per parent (GraphQL's relation `pagination`); all of them when absent. */
  readonly window?: PopulateWindow;
  /** Scalar attributes of the target to return; null = all of them. */
  readonly fields: readonly string[] | null;
  readonly sort: readonly SortTerm[];
  readonly filters: FilterNode | null;
  /** `populate[x][count]=true`: return `{ count }` instead of the related entries. */
  readonly count: boolean;
  readonly populate: readonly PopulateNode[];
}

/** The per-component part of a dynamic-zone populate (`populate[blocks][on][shared.quote]`). */
export interface DynamicZoneFragment {
  readonly fields: readonly string[] | null;
  /** Only the component's items matching these are returned. */
  readonly filters: FilterNode | null;
  readonly populate: readonly PopulateNode[];
}

export interface DynamicZonePopulateNode extends PopulateKey {
  readonly kind: 'dynamiczone';
  readonly attribute: string;
  /** Component uid → what to return of it; components not listed are left out. */
  readonly fragments: ReadonlyMap<string, DynamicZoneFragment>;
}
