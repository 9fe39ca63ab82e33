import { describe, expect, it } from 'vitest';
import { normalizePopulate } from '../query/normalize-populate.js';
import type { DynamicZonePopulateNode, PopulateNode, TargetPopulateNode } from '../query/populate-types.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { buildSchema } from '../schema/build-schema.js';
import type { ContentType, Schema } from '../schema/types.js';
import { rawCollectionType, rawComponent } from '../../test/support/unit.js';
import { prunePopulate } from './prune-populate.js';

const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';
const TAG = 'api::tag.tag';
const FILE = 'plugin::upload.file';

const schema: Schema = buildSchema(
  [
    ...BUILTIN_CONTENT_TYPES,
    rawCollectionType(
      ARTICLE,
      'article',
      'articles',
      {
        title: { type: 'string' },
        author: { type: 'relation', relation: 'manyToOne', target: AUTHOR, inversedBy: 'articles' },
        tags: { type: 'relation', relation: 'manyToMany', target: TAG, inversedBy: 'articles' },
        cover: { type: 'media', multiple: false },
        seo: { type: 'component', component: 'shared.seo' },
        blocks: { type: 'dynamiczone', components: ['shared.quote', 'shared.text'] },
      },
      { pluginOptions: { i18n: { localized: true } } },
    ),
    rawCollectionType(AUTHOR, 'author', 'authors', {
      name: { type: 'string' },
      avatar: { type: 'media', multiple: false },
      articles: { type: 'relation', relation: 'oneToMany', target: ARTICLE, mappedBy: 'author' },
    }),
    rawCollectionType(
      'api::note.note',
      'note',
      'notes',
      { text: { type: 'string' }, author: { type: 'relation', relation: 'manyToOne', target: AUTHOR } },
      { options: { populateCreatorFields: true } },
    ),
    rawCollectionType(TAG, 'tag', 'tags', {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'manyToMany', target: ARTICLE, mappedBy: 'tags' },
    }),
  ],
  [
    rawComponent('shared.seo', 'components_shared_seos', {
      metaTitle: { type: 'string' },
      image: { type: 'media', multiple: false },
      reviewer: { type: 'relation', relation: 'oneToOne', target: AUTHOR },
      keywords: { type: 'component', component: 'shared.keyword', repeatable: true },
    }),
    rawComponent('shared.keyword', 'components_shared_keywords', {
      word: { type: 'string' },
      tag: { type: 'relation', relation: 'oneToOne', target: TAG },
    }),
    rawComponent('shared.quote', 'components_shared_quotes', {
      text: { type: 'text' },
      author: { type: 'relation', relation: 'oneToOne', target: AUTHOR },
    }),
    rawComponent('shared.text', 'components_shared_texts', { body: { type: 'text' } }),
  ],
);
const article = schema.contentTypes.get(ARTICLE) as ContentType;

const allowing =
  (...uids: string[]) =>
  (uid: string) =>
    uids.includes(uid);
const prune = (raw: unknown, mayFind: (uid: string) => boolean) =>
  prunePopulate(schema, article, normalizePopulate(schema, article, raw), mayFind);
const names = (nodes: readonly PopulateNode[]) => nodes.map((n) => n.attribute);
const node = (nodes: readonly PopulateNode[], attribute: string) =>
  nodes.find((n) => n.attribute === attribute) as TargetPopulateNode;
const zone = (nodes: readonly PopulateNode[], attribute: string) =>
  nodes.find((n) => n.attribute === attribute) as DynamicZonePopulateNode;

describe('prunePopulate: relations of the model itself', () => {
  it('keeps everything when every type may be found', () => {
    const nodes = normalizePopulate(schema, article, '*');
    expect(prunePopulate(schema, article, nodes, () => true)).toEqual(nodes);
  });

  it('drops a relation whose target may not be found, silently', () => {
    expect(names(prune('author,tags', allowing(ARTICLE, TAG)))).toEqual(['tags']);
    expect(names(prune({ author: true, tags: true }, allowing(ARTICLE, AUTHOR)))).toEqual(['author']);
    expect(prune('author', allowing(ARTICLE))).toEqual([]);
  });

  it('keeps the options of the nodes it keeps', () => {
    const [tags] = prune({ tags: { fields: ['name'], sort: 'name:desc', count: 'true' }, author: true }, allowing(TAG));
    expect(tags).toEqual({
      kind: 'relation',
      attribute: 'tags',
      fields: ['name'],
      sort: [{ path: ['name'], direction: 'desc' }],
      filters: null,
      count: true,
      populate: [],
    });
  });

  it('keeps media and components even when files and authors may not be found', () => {
    expect(names(prune('*', allowing(ARTICLE)))).toEqual(['cover', 'seo', 'blocks', 'localizations']);
  });

  it('keeps localizations when the type itself may be found', () => {
    expect(names(prune('localizations', allowing(ARTICLE)))).toEqual(['localizations']);
  });

  it('drops localizations when the type itself may not be found', () => {
    expect(names(prune('*', allowing(AUTHOR, TAG, FILE)))).toEqual(['author', 'tags', 'cover', 'seo', 'blocks']);
    expect(prune('localizations', allowing(AUTHOR, TAG))).toEqual([]);
  });

  it('asks about target uids (and the type itself for localizations), never about media or components', () => {
    const asked = new Set<string>();
    prune('*', (uid) => {
      asked.add(uid);
      return true;
    });
    expect([...asked].sort()).toEqual([ARTICLE, AUTHOR, TAG].sort());
  });
});

describe('prunePopulate: nested populate', () => {
  it('drops a relation nested under a kept relation', () => {
    const nodes = prune({ author: { populate: { articles: true, avatar: true } } }, allowing(AUTHOR));
    expect(names(nodes)).toEqual(['author']);
    expect(names(node(nodes, 'author').populate)).toEqual(['avatar']);
  });

  it('drops a whole subtree with its relation', () => {
    expect(
      prune({ tags: { populate: { articles: { populate: { author: true } } } } }, allowing(ARTICLE, AUTHOR)),
    ).toEqual([]);
  });

  it('checks every level of a relation chain', () => {
    const nodes = prune('tags.articles.author', allowing(ARTICLE, TAG));
    const articles = node(node(nodes, 'tags').populate, 'articles');
    expect(articles.populate).toEqual([]);
  });

  it('drops a relation inside a component, keeping the component and its media', () => {
    const nodes = prune({ seo: { populate: { reviewer: true, image: true } } }, allowing(ARTICLE));
    expect(names(nodes)).toEqual(['seo']);
    expect(names(node(nodes, 'seo').populate)).toEqual(['image']);
  });

  it('keeps a relation inside a component when its target may be found', () => {
    const nodes = prune({ seo: { populate: { reviewer: true, image: true } } }, allowing(AUTHOR));
    expect(names(node(nodes, 'seo').populate)).toEqual(['reviewer', 'image']);
  });

  it('drops a relation inside a component nested in a component', () => {
    const nodes = prune('seo.keywords.tag', allowing(ARTICLE));
    const keywords = node(node(nodes, 'seo').populate, 'keywords');
    expect(keywords.kind).toBe('component');
    expect(keywords.populate).toEqual([]);
  });

  it('drops a relation inside a dynamic-zone fragment, keeping the zone and its fragments', () => {
    const nodes = prune(
      { blocks: { on: { 'shared.quote': { fields: ['text'], populate: { author: true } }, 'shared.text': true } } },
      allowing(ARTICLE),
    );
    expect(nodes).toEqual([
      {
        kind: 'dynamiczone',
        attribute: 'blocks',
        fragments: new Map([
          ['shared.quote', { fields: ['text'], filters: null, populate: [] }],
          ['shared.text', { fields: null, filters: null, populate: [] }],
        ]),
      },
    ]);
  });

  it('keeps a relation inside a dynamic-zone fragment when its target may be found', () => {
    const nodes = prune({ blocks: { populate: '*' } }, allowing(AUTHOR));
    expect(names(zone(nodes, 'blocks').fragments.get('shared.quote')?.populate ?? [])).toEqual(['author']);
  });

  it('prunes a zone-wide populate in every fragment', () => {
    const nodes = prune({ blocks: { populate: '*' } }, allowing(ARTICLE));
    const fragments = zone(nodes, 'blocks').fragments;
    expect([...fragments.keys()]).toEqual(['shared.quote', 'shared.text']);
    expect(fragments.get('shared.quote')?.populate).toEqual([]);
    expect(fragments.get('shared.text')?.populate).toEqual([]);
  });

  it('does not change the nodes it is given', () => {
    const nodes = normalizePopulate(schema, article, { author: true, seo: { populate: { reviewer: true } } });
    const copy = structuredClone(nodes);
    prunePopulate(schema, article, nodes, allowing(ARTICLE));
    expect(nodes).toEqual(copy);
  });

  it('keeps createdBy/updatedBy of a type with populateCreatorFields, as Strapi does', () => {
    const note = schema.contentTypes.get('api::note.note') as ContentType;
    const nodes = prunePopulate(
      schema,
      note,
      normalizePopulate(schema, note, 'createdBy,updatedBy,author'),
      allowing('api::note.note'),
    );
    expect(names(nodes)).toEqual(['createdBy', 'updatedBy']);
  });
});
