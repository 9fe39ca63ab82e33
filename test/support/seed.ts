import type { Step } from './scenario.js';

/** Five published articles with varied scalar values (the conformance suite's filter set). */
export const ARTICLE_SEED: readonly Record<string, unknown>[] = [
  {
    title: 'Alpha release notes',
    views: 50,
    rating: 3,
    price: 5.5,
    bigcount: '100',
    category: 'news',
    isFeatured: false,
    publishDate: '2023-01-10',
    publishTime: '08:00:00',
    eventAt: '2023-01-10T08:00:00.000Z',
    summary: null,
  },
  {
    title: 'beta testing guide',
    views: 0,
    rating: 4.9,
    price: 12,
    bigcount: '2000',
    category: 'life',
    isFeatured: true,
    publishDate: '2024-12-24',
    publishTime: '12:30:00',
    eventAt: '2024-12-24T12:30:00.000Z',
    summary: 'Guide for BETA testers',
  },
  {
    title: 'Zeta databases deep dive',
    views: 120,
    rating: 2.2,
    price: 99.99,
    bigcount: '30000',
    category: 'tech',
    publishDate: '2025-03-03',
    eventAt: '2025-03-03T20:15:00.000Z',
    contactEmail: 'z@example.com',
    summary: 'Deep dive',
  },
  {
    title: 'Hello Strapi',
    views: 10,
    rating: 4.5,
    price: 19.99,
    category: 'tech',
    isFeatured: true,
    publishDate: '2024-05-17',
    contactEmail: 'contact@example.com',
    summary: '100% pure_fun',
  },
  { title: 'gamma notes', views: 10, summary: '1000 pure fun' },
];

/** Steps creating ARTICLE_SEED; saves their documentIds as a0…a4 and row ids as id0…id4. */
export function seedArticles(): Step[] {
  return ARTICLE_SEED.map((data, index) => ({
    name: `seed article ${index}`,
    method: 'POST',
    path: '/api/articles?fields[0]=title',
    body: { data },
    status: 201,
    save: { [`a${index}`]: 'data.documentId', [`id${index}`]: 'data.id' },
  }));
}

/** Titles of a list response, in order. */
export function titles(json: { data: { title: string }[] }): string[] {
  return json.data.map((d) => d.title);
}
