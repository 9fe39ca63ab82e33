import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../query/query-types.js';
import { readModelFiles } from '../project/read-model-files.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { buildSchema } from '../schema/build-schema.js';
import type { Schema } from '../schema/types.js';
import { planFilter } from './plan-filters.js';
import type { Condition } from './plan-types.js';

const files = readModelFiles(resolve(import.meta.dirname, '../../examples/blog'));

/** examples/blog's schema; the author type with locales, or with draft & publish, as given. */
function blogSchema(authors: { readonly localized?: boolean; readonly draftAndPublish?: boolean } = {}): Schema {
  const contentTypes = files.contentTypes.map((type) =>
    type.uid !== 'api::author.author'
      ? type
      : {
          ...type,
          definition: {
            ...type.definition,
            options: { ...type.definition.options, draftAndPublish: authors.draftAndPublish ?? false },
            pluginOptions: { i18n: { localized: authors.localized ?? false } },
          },
        },
  );
  return buildSchema([...BUILTIN_CONTENT_TYPES, ...contentTypes], files.components);
}

/** The condition a filter on `attribute`'s `name`/`title` gives on articles (or `from`). */
function filterThrough(schema: Schema, attribute: string, from = 'api::article.article'): Condition {
  const model = schema.contentTypes.get(from);
  if (!model) throw new Error(`no ${from}`);
  const field = attribute === 'articles' ? 'title' : 'name';
  const node: FilterNode = {
    kind: 'nested',
    attribute,
    child: { kind: 'compare', field, op: 'eq', value: 'x' },
  };
  return planFilter({ schema, model, alias: 't0', depth: 0, status: 'published' }, node);
}

const distinctOf = (condition: Condition) => (condition.kind === 'inSelect' ? (condition.distinct ?? false) : null);

describe('a filter through a relation', () => {
  it('is a semi-join marked distinct for a to-one relation to a type without locales (a statement may join it)', () => {
    const schema = blogSchema();
    expect(distinctOf(filterThrough(schema, 'author'))).toBe(true); // manyToOne
    expect(distinctOf(filterThrough(schema, 'editor'))).toBe(true); // oneToOne
  });

  it('is not distinct through a to-many relation, a component, or to a type with locales or draft & publish', () => {
    const schema = blogSchema();
    expect(distinctOf(filterThrough(schema, 'tags'))).toBe(false); // manyToMany
    expect(distinctOf(filterThrough(schema, 'articles', 'api::author.author'))).toBe(false); // oneToMany
    const seo: FilterNode = {
      kind: 'nested',
      attribute: 'seo',
      child: { kind: 'compare', field: 'metaTitle', op: 'eq', value: 'x' },
    };
    const article = schema.contentTypes.get('api::article.article');
    if (!article) throw new Error('no article type');
    expect(distinctOf(planFilter({ schema, model: article, alias: 't0', depth: 0, status: 'published' }, seo))).toBe(
      false,
    );
    // A link may reach several locales of one author document.
    expect(distinctOf(filterThrough(blogSchema({ localized: true }), 'author'))).toBe(false);
    // Databases written before publishing replaced a published article's author may hold two links.
    expect(distinctOf(filterThrough(blogSchema({ draftAndPublish: true }), 'author'))).toBe(false);
  });
});
