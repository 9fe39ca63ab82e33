import sharp from 'sharp';

/**
 * A small but complete blog dataset for the transfer tests and for the Strapi archive fixture
 * (test/fixtures/transfer): written through the REST API of Strapi 5 or Cairn alike, so both hold
 * the same content. Images with formats, a text file, authors with avatars, tags, articles with
 * drafts, a published version with a newer draft, an `fr` locale, ordered relations both ways,
 * a component with a repeatable component inside, a dynamic zone, the single type and a secret.
 */

/** The documentIds and file ids the seed made. */
export interface SeededBlog {
  readonly files: readonly number[];
  readonly authors: readonly string[];
  readonly tags: readonly string[];
  readonly articles: readonly string[];
}

type Json = Record<string, unknown>;

async function send(base: string, token: string, method: string, path: string, body?: Json): Promise<Json> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 400)}`);
  return text ? (JSON.parse(text) as Json) : {};
}

async function gradient(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      pixels[i] = Math.round((x * 255) / width);
      pixels[i + 1] = Math.round((y * 255) / height);
      pixels[i + 2] = format === 'png' ? (((x >> 4) + (y >> 4)) % 2 ? 160 : 96) : 128;
    }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 60 }).toBuffer();
}

async function upload(base: string, token: string, name: string, type: string, bytes: Buffer): Promise<number> {
  const form = new FormData();
  form.append('files', new Blob([bytes], { type }), name);
  const response = await fetch(`${base}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`upload ${name} answered ${response.status}: ${text.slice(0, 400)}`);
  return (JSON.parse(text) as { id: number }[])[0]!.id;
}

const documentId = (answer: Json) => (answer.data as { documentId: string }).documentId;

/** Seeds the dataset through `base`'s REST API with a full-access token; uploads run one at a time. */
export async function seedTransferBlog(base: string, token: string): Promise<SeededBlog> {
  const files = [
    await upload(base, token, 'harbour.jpg', 'image/jpeg', await gradient(800, 534, 'jpeg')),
    await upload(base, token, 'checker.png', 'image/png', await gradient(300, 200, 'png')),
    await upload(base, token, 'notes.txt', 'text/plain', Buffer.from('Transfer test notes.\n')),
  ];
  const [jpeg, png, notes] = files as [number, number, number];
  const post = (path: string, data: Json) => send(base, token, 'POST', path, { data }).then(documentId);
  const authors = [
    await post('/api/authors', { name: 'Ada Lovelace', email: 'ada@example.com', bio: 'Notes.', avatar: png }),
    await post('/api/authors', { name: 'Grace Hopper', email: 'grace@example.com' }),
  ];
  const tags = [
    await post('/api/tags', { name: 'alpha' }),
    await post('/api/tags', { name: 'beta' }),
    await post('/api/tags', { name: 'gamma' }),
  ];
  const [ada, grace] = authors as [string, string];
  const [alpha, beta, gamma] = tags as [string, string, string];
  const first = await post('/api/articles', {
    title: 'Hello transfer',
    slug: 'hello-transfer',
    summary: 'The first article',
    body: '# Heading\n\nSome *markdown*.',
    content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Blocks body' }] }],
    views: 42,
    rating: 4.5,
    price: 9.99,
    bigcount: '9007199254740993',
    isFeatured: true,
    publishDate: '2024-03-01',
    publishTime: '12:34:56.000',
    eventAt: '2024-03-01T10:00:00.000Z',
    meta: { nested: { list: [1, 2, 3] }, flag: true },
    category: 'tech',
    contactEmail: 'press@example.com',
    secretCode: 'hunter2hunter2',
    cover: jpeg,
    gallery: [png, jpeg, notes],
    author: ada,
    editor: grace,
    tags: [gamma, alpha, beta],
    seo: {
      metaTitle: 'Hello SEO',
      metaDescription: 'About transfers',
      shareImage: jpeg,
      keywords: [{ word: 'strapi' }, { word: 'cairn' }, { word: 'export' }],
    },
    blocks: [
      { __component: 'shared.quote', title: 'A quote', body: 'Quoted text', author: grace },
      { __component: 'shared.rich-text', body: 'Rich **text**' },
      { __component: 'shared.media-block', file: png },
      { __component: 'shared.quote', title: 'Second quote', author: ada },
    ],
  });
  await send(base, token, 'PUT', `/api/articles/${first}?locale=fr`, {
    data: { title: 'Bonjour transfert', slug: 'bonjour-transfert', summary: 'Le premier article', tags: [beta] },
  });
  const second = await post('/api/articles', {
    title: 'Published then edited',
    slug: 'published-then-edited',
    views: 7,
    category: 'news',
    author: ada,
    tags: [alpha, gamma],
    blocks: [{ __component: 'shared.rich-text', body: 'Published body' }],
  });
  await send(base, token, 'PUT', `/api/articles/${second}?status=draft`, {
    data: { title: 'Published then edited (draft)', views: 8, tags: [gamma] },
  });
  const draft = await send(base, token, 'POST', '/api/articles?status=draft', {
    data: { title: 'Only a draft', summary: 'Never published', author: grace, tags: [alpha] },
  }).then(documentId);
  const third = await post('/api/articles', { title: 'Third', slug: 'third', author: ada, tags: [alpha] });
  await send(base, token, 'PUT', '/api/global', {
    data: {
      siteName: 'Transfer blog',
      defaultSeo: { metaTitle: 'Site SEO', shareImage: png, keywords: [{ word: 'site' }] },
    },
  });
  await post('/api/secrets', { label: 'the secret' });
  return { files, authors, tags, articles: [first, second, draft, third] };
}
