import type { FilterNode, SortTerm } from './query-types.js';

/**
 * What to populate under one attribute. Relation, media and component nodes describe their
 * target model; a dynamic zone lists a fragment per component it returns.
 */
export type PopulateNode = TargetPopulateNode | DynamicZonePopulateNode;

export interface TargetPopulateNode {
  readonly kind: 'relation' | 'media' | 'component' | 'localizations';
  readonly attribute: string;
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

export interface DynamicZonePopulateNode {
  readonly kind: 'dynamiczone';
  readonly attribute: string;
  /** Component uid → what to return of it; components not listed are left out. */
  readonly fragments: ReadonlyMap<string, DynamicZoneFragment>;
}
