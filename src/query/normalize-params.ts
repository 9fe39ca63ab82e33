import { ValidationError } from '../core/errors.js';
import type { ContentType } from '../schema/types.js';
import { PUBLICATION_FILTERS, type PublicationFilter, type Status } from './query-types.js';

/** `status`: `published` (default) or `draft`, validated even on types without draft & publish. */
export function normalizeStatus(raw: unknown): Status {
  if (raw === undefined) return 'published';
  if (raw === 'published' || raw === 'draft') return raw;
  throw new ValidationError(`Invalid parameter at 'status'. Expected 'published' or 'draft', received: ${String(raw)}`);
}

const LOCALE_FORMAT = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/**
 * `locale`: a BCP 47-ish code (any well-formed code is accepted, configured or not, as Strapi
 * does), `*` for all locales, or the default locale when absent. Null for non-localized types.
 */
export function normalizeLocale(type: ContentType, raw: unknown, defaultLocale: string): string | null {
  if (raw !== undefined && raw !== '*' && (typeof raw !== 'string' || raw.length > 35 || !LOCALE_FORMAT.test(raw))) {
    throw new ValidationError(
      "Invalid parameter at 'locale'. Locale must be a valid BCP 47 format (e.g. en, en-US, zh-Hans).",
    );
  }
  if (!type.localized) return null;
  return typeof raw === 'string' ? raw : defaultLocale;
}

/** `publicationFilter` (or the deprecated `hasPublishedVersion=true|false`); null on non-D&P types. */
export function normalizePublicationFilter(
  type: ContentType,
  raw: unknown,
  hasPublishedVersion: unknown,
): PublicationFilter | null {
  let filter: PublicationFilter | null = null;
  if (raw !== undefined) {
    if (typeof raw !== 'string' || !PUBLICATION_FILTERS.includes(raw as PublicationFilter)) {
      throw new ValidationError(
        `Invalid value for 'publicationFilter'. Expected one of: ${PUBLICATION_FILTERS.join(', ')}.`,
        {
          param: 'publicationFilter',
          source: 'query',
        },
      );
    }
    filter = raw as PublicationFilter;
  }
  if (hasPublishedVersion !== undefined && filter === null) {
    if (hasPublishedVersion === 'true' || hasPublishedVersion === true) filter = 'has-published-version-document';
    else if (hasPublishedVersion === 'false' || hasPublishedVersion === false) filter = 'never-published-document';
    else
      throw new ValidationError("Invalid value for 'hasPublishedVersion'. Expected boolean or 'true'/'false' string.");
  }
  return type.draftAndPublish ? filter : null;
}

/** `_q`: the search term, or null. */
export function normalizeSearch(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw new ValidationError('Invalid _q parameter. Expected a string');
  return raw;
}
