import type { Config } from '../../config/config.js';
import type { Database } from '../../db/database.js';
import type { DocumentService } from '../../documents/document-service.js';
import type { NormalizeQueryOptions } from '../../query/normalize-query.js';
import type { ContentType, Schema } from '../../schema/types.js';

/** What the content manager's reads need. */
export interface CmReadDeps {
  readonly config: Config;
  readonly schema: Schema;
  readonly db: Database;
  readonly service: DocumentService;
  /**
   * The attribute the content manager shows a type's documents by: the `mainField` of its view
   * configuration (what an editor chose, Strapi's default otherwise); null when that is the id.
   */
  readonly mainField: (type: ContentType) => string | null;
}

/**
 * Query options for the content manager's reads: its query keys are the admin's own (no strict
 * REST params), its page size is capped only by `maxLimit` (none for the list, as Strapi), and
 * it reads for the admin, who may filter and sort by `createdBy`/`updatedBy` (query-audience.ts).
 */
export function cmQueryOptions(deps: CmReadDeps, maxLimit: number | null = null): NormalizeQueryOptions {
  return {
    api: { ...deps.config.api, strictParams: false, documentsStrictParams: false, maxLimit },
    defaultLocale: deps.config.i18n.defaultLocale,
    audience: 'admin',
  };
}

/** A document as the content manager shows it: REST's fields plus counts, creators, status and localizations. */
export type CmDocument = Record<string, unknown>;
