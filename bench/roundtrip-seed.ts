/**
 * Content for the Strapi round trip (strapi-roundtrip.ts), written through the REST API of
 * whichever server runs (Cairn or Strapi, as the Public role): an uploaded image, authors, tags,
 * the global single type, and articles with relations, media, a component with a nested
 * component, dynamic-zone items (one with a relation), drafts only, published with a different
 * draft, and French localizations.
 */
import sharp from 'sharp';

async function call(base: string, method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 400)}`);
  return text ? (JSON.parse(text) as Record<string, any>) : {};
}

async function uploadImage(base: string): Promise<number> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 80, b: 20 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('files', new Blob([png], { type: 'image/png' }), 'roundtrip.png');
  const response = await fetch(`${base}/api/upload`, { method: 'POST', body: form });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST /api/upload answered ${response.status}: ${text.slice(0, 400)}`);
  return (JSON.parse(text) as { id: number }[])[0]!.id;
}

/** Seeds the content; returns the article documentIds (French ones included) for per-document GETs. */
export async function seedRoundtripContent(base: string): Promise<string[]> {
  const image = await uploadImage(base);
  const authors: string[] = [];
  for (const name of ['Ada', 'Brian', 'Chloé']) {
    authors.push(
      (
        await call(base, 'POST', '/api/authors', {
          data: { name, email: `${name.toLowerCase()}@example.com`, bio: `About ${name}`, avatar: image },
        })
      ).data.documentId,
    );
  }
  const tags: string[] = [];
  for (const name of ['news', 'tech', 'life', 'misc'])
    tags.push((await call(base, 'POST', '/api/tags', { data: { name } })).data.documentId);
  await call(base, 'PUT', '/api/global', {
    data: { siteName: 'Round trip', defaultSeo: { metaTitle: 'Site', keywords: [{ word: 'a' }, { word: 'b' }] } },
  });

  const articles: string[] = [];
  for (let i = 0; i < 16; i++) {
    const draftOnly = i % 4 === 0;
    const body = {
      data: {
        title: `Article ${i}`,
        summary: `Summary ${i}`,
        views: i * 10,
        category: ['news', 'tech', 'life'][i % 3],
        author: authors[i % 3],
        editor: authors[(i + 1) % 3],
        tags: [tags[i % 4], tags[(i + 1) % 4]],
        cover: image,
        seo: { metaTitle: `SEO ${i}`, keywords: [{ word: `k${i}` }] },
        blocks: [
          { __component: 'shared.quote', title: `Quote ${i}`, body: 'Quoted', author: authors[(i + 2) % 3] },
          { __component: 'shared.rich-text', body: `Rich ${i}` },
        ],
      },
    };
    const id = (await call(base, 'POST', `/api/articles${draftOnly ? '?status=draft' : ''}`, body)).data
      .documentId as string;
    articles.push(id);
    if (!draftOnly && i % 3 === 0)
      await call(base, 'PUT', `/api/articles/${id}?status=draft`, {
        data: { title: `Article ${i} (edited draft)`, tags: [tags[3]] },
      });
    if (i % 2 === 1)
      await call(base, 'PUT', `/api/articles/${id}?locale=fr`, {
        data: { title: `Article ${i} FR`, summary: `Résumé ${i}` },
      });
  }
  return articles;
}

/** The GETs compared between servers: lists per locale and status with everything populated, and each document. */
export function roundtripPaths(articles: readonly string[]): string[] {
  const populate =
    'populate[author]=true&populate[editor]=true&populate[tags]=true&populate[cover]=true&populate[seo][populate]=*&populate[blocks][populate]=*&populate[localizations]=true';
  const lists = ['en', 'fr'].flatMap((locale) =>
    ['published', 'draft'].map(
      (status) => `/api/articles?locale=${locale}&status=${status}&sort=title&pagination[pageSize]=100&${populate}`,
    ),
  );
  return [
    ...lists,
    ...articles.map((id) => `/api/articles/${id}?status=draft&${populate}`),
    '/api/authors?populate=*&sort=name',
    '/api/tags?populate=*&sort=name',
    '/api/global?populate[defaultSeo][populate]=*',
    '/api/upload/files?sort=id',
  ];
}
