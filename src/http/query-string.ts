import qs from 'qs';

/** qs options Strapi's query middleware uses. */
const QS_OPTIONS = { strictNullHandling: true, arrayLimit: 100, depth: 20 } as const;

/** A URL's query string (after `?`) parsed as Strapi's query middleware parses it; '' is `{}`. */
export function parseQueryString(raw: string): Record<string, unknown> {
  return raw === '' ? {} : (qs.parse(raw, QS_OPTIONS) as Record<string, unknown>);
}
