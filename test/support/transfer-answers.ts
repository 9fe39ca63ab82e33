/**
 * The REST answers the transfer tests compare: every document of the blog in every status and
 * locale, with its relations (in order), media, components, nested components and dynamic zone
 * populated; the inverse sides (an author's articles, a tag's articles, in their order); the
 * single type, the secrets, the media library and the locales. Row ids are left out of the
 * comparison (an import gives rows new ids, in Strapi as in Cairn); everything else is compared.
 */

const ARTICLE_POPULATE = [
  'populate[author]=true',
  'populate[editor]=true',
  'populate[tags]=true',
  'populate[cover]=true',
  'populate[gallery]=true',
  'populate[seo][populate]=*',
  'populate[blocks][on][shared.quote][populate]=*',
  'populate[blocks][on][shared.rich-text][populate]=*',
  'populate[blocks][on][shared.media-block][populate]=*',
  'populate[localizations]=true',
].join('&');

/** The paths read, each answered with a JSON body. */
export const TRANSFER_QUERIES: readonly string[] = [
  ...['draft', 'published'].flatMap((status) =>
    ['en', 'fr'].map((locale) => `/api/articles?status=${status}&locale=${locale}&sort=documentId&${ARTICLE_POPULATE}`),
  ),
  '/api/authors?sort=name&populate[avatar]=true&populate[articles][fields][0]=title',
  '/api/authors?sort=name&status=draft&populate[articles][fields][0]=title',
  '/api/tags?sort=name&populate[articles][fields][0]=title&populate[articles][fields][1]=locale',
  '/api/tags?sort=name&status=draft&populate[articles][fields][0]=title',
  '/api/global?populate[defaultSeo][populate]=*',
  '/api/secrets?sort=label',
  '/api/upload/files?sort=name',
  '/api/i18n/locales',
];

/** Drops every `id` key (row ids), recursively; arrays keep their order. */
export function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => key !== 'id')
        .map(([key, item]) => [key, withoutIds(item)]),
    );
  }
  return value;
}

/** Reads every query from `base` with a full-access token; path → status and body (ids dropped). */
export async function readAnswers(base: string, token: string): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const path of TRANSFER_QUERIES) {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    answers[path] = { status: response.status, body: withoutIds(await response.json()) };
  }
  return answers;
}
