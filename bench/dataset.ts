import { createPrng } from './prng.js';

/** How much to seed. */
export interface DatasetSize {
  readonly articles: number;
  readonly authors: number;
  readonly tags: number;
  /** Images uploaded through POST /api/upload, used as covers, galleries and avatars. */
  readonly images: number;
}

/** One generated JPEG to upload. */
export interface SeedImage {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  /** Gradient colours (RGB) from the left edge to the right. */
  readonly from: readonly [number, number, number];
  readonly to: readonly [number, number, number];
}

/** The request bodies that seed one run, in the order they must be sent. */
export interface Dataset {
  readonly images: readonly SeedImage[];
  readonly authors: readonly Record<string, unknown>[];
  readonly tags: readonly Record<string, unknown>[];
  /**
   * Articles reference authors and tags by index (`authorIndex`, `tagIndexes`, …); `articleBody`
   * turns one into a request body once the seeded documentIds are known.
   */
  readonly articles: readonly SeedArticle[];
}

/** One article of the dataset, its relations given as indexes into the seeded authors and tags. */
export interface SeedArticle {
  readonly fields: Record<string, unknown>;
  readonly authorIndex: number;
  readonly editorIndex: number | null;
  readonly tagIndexes: readonly number[];
  /** Indexes into the uploaded images: the cover (or none) and the gallery. */
  readonly coverIndex: number | null;
  readonly galleryIndexes: readonly number[];
  readonly seo: Record<string, unknown>;
  /** Dynamic-zone items; a quote's `authorIndex` becomes its `author` relation. */
  readonly blocks: readonly ({ __component: string; authorIndex?: number } & Record<string, unknown>)[];
}

const WORDS =
  'alpha beta gamma delta epsilon zeta theta iota kappa lambda sigma omega river stone cairn trail summit ridge valley north'.split(
    ' ',
  );
const CATEGORIES = ['news', 'tech', 'life'] as const;

/** Builds the dataset for a seed: the same seed and size always give the same bodies. */
export function buildDataset(size: DatasetSize, seed = 20261121): Dataset {
  const rng = createPrng(seed);
  const words = (count: number) => Array.from({ length: count }, () => rng.pick(WORDS)).join(' ');
  const authors = Array.from({ length: size.authors }, (_, i) => ({
    name: `Author ${String(i).padStart(4, '0')}`,
    email: `author${i}@example.com`,
    bio: words(rng.int(8, 30)),
  }));
  const tags = Array.from({ length: size.tags }, (_, i) => ({ name: `tag-${i}-${rng.pick(WORDS)}` }));
  const SIZES = [
    [1200, 800],
    [800, 600],
    [640, 480],
    [320, 240],
  ] as const;
  const colour = () => [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)] as const;
  const images = Array.from({ length: size.images }, (_, i) => {
    const [width, height] = SIZES[i % SIZES.length] as readonly [number, number];
    return { name: `photo-${i}.jpg`, width, height, from: colour(), to: colour() };
  });
  const imagePool = images.map((_, i) => i);
  const tagPool = tags.map((_, i) => i);
  const articles: SeedArticle[] = [];
  for (let i = 0; i < size.articles; i++) {
    const day = 1 + (i % 28);
    const fields = {
      title: `${words(rng.int(3, 8))} ${i}`,
      slug: `article-${i}`,
      summary: words(rng.int(10, 30)),
      body: `# ${words(3)}\n\n${words(rng.int(40, 120))}`,
      content: [{ type: 'paragraph', children: [{ type: 'text', text: words(rng.int(10, 40)) }] }],
      views: rng.int(0, 100_000),
      rating: Math.round(rng.next() * 500) / 100,
      price: rng.int(100, 99_999) / 100,
      bigcount: String(rng.int(0, 2 ** 31)),
      isFeatured: rng.next() < 0.2,
      publishDate: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      publishTime: `${String(rng.int(0, 23)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00.000`,
      eventAt: new Date(Date.UTC(2026, i % 12, day, rng.int(0, 23))).toISOString(),
      meta: { readingMinutes: rng.int(1, 20), lang: 'en' },
      category: rng.pick(CATEGORIES),
      contactEmail: `contact${i}@example.com`,
    };
    const blocks = Array.from({ length: rng.int(1, 4) }, () => {
      const kind = rng.int(0, 2);
      if (kind === 0)
        return {
          __component: 'shared.quote',
          title: words(3),
          body: words(rng.int(8, 20)),
          authorIndex: rng.int(0, size.authors - 1),
        };
      if (kind === 1) return { __component: 'shared.rich-text', body: words(rng.int(20, 60)) };
      return { __component: 'shared.media-block' };
    });
    articles.push({
      fields,
      authorIndex: rng.int(0, size.authors - 1),
      // oneToOne: an author edits at most one article.
      editorIndex: i < size.authors && rng.next() < 0.5 ? i : null,
      tagIndexes: rng.sample(tagPool, rng.int(1, Math.min(5, size.tags))),
      coverIndex: images.length > 0 && rng.next() < 0.8 ? rng.int(0, images.length - 1) : null,
      galleryIndexes: images.length > 0 ? rng.sample(imagePool, rng.int(0, Math.min(3, images.length))) : [],
      seo: {
        metaTitle: words(4),
        metaDescription: words(rng.int(10, 25)),
        keywords: Array.from({ length: rng.int(1, 4) }, () => ({ word: rng.pick(WORDS) })),
      },
      blocks,
    });
  }
  return { images, authors, tags, articles };
}

/** The POST body of a seed article, given the documentIds of the authors and tags and the ids of the uploaded files. */
export function articleBody(
  article: SeedArticle,
  authorIds: readonly string[],
  tagIds: readonly string[],
  fileIds: readonly number[],
): { data: Record<string, unknown> } {
  const id = (ids: readonly string[], index: number) => ids[index] as string;
  const file = (index: number) => fileIds[index] as number;
  return {
    data: {
      ...article.fields,
      author: id(authorIds, article.authorIndex),
      editor: article.editorIndex === null ? null : id(authorIds, article.editorIndex),
      tags: article.tagIndexes.map((index) => id(tagIds, index)),
      ...(fileIds.length > 0
        ? {
            cover: article.coverIndex === null ? null : file(article.coverIndex),
            gallery: article.galleryIndexes.map(file),
          }
        : {}),
      seo: article.seo,
      blocks: article.blocks.map(({ authorIndex, ...block }) =>
        authorIndex === undefined ? block : { ...block, author: id(authorIds, authorIndex) },
      ),
    },
  };
}
