import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readModelFiles } from '../project/read-model-files.js';
import { BUILTIN_CONTENT_TYPES } from './builtin-types.js';
import { buildSchema } from './build-schema.js';
import { modelTables } from './tables.js';

const files = readModelFiles(resolve(import.meta.dirname, '../../examples/blog'));

/** examples/blog's schema, with the tag type's draft & publish and i18n set as given. */
function schemaWithTag(options: { readonly draftAndPublish: boolean; readonly localized: boolean }) {
  const contentTypes = files.contentTypes.map((type) =>
    type.uid !== 'api::tag.tag'
      ? type
      : {
          ...type,
          definition: {
            ...type.definition,
            options: { ...type.definition.options, draftAndPublish: options.draftAndPublish },
            pluginOptions: { i18n: { localized: options.localized } },
          },
        },
  );
  return buildSchema([...BUILTIN_CONTENT_TYPES, ...contentTypes], files.components);
}

/** The Cairn-only indexes of the tags table, as `name (columns) where`. */
function cairnIndexesOfTags(options: { readonly draftAndPublish: boolean; readonly localized: boolean }): string[] {
  const schema = schemaWithTag(options);
  const { table } = modelTables(schema, schema.contentTypes.get('api::tag.tag')!);
  return table.indexes
    .filter((index) => index.cairnOnly)
    .map(
      (index) =>
        `${index.name} (${index.columns.join(', ')})${index.where ? ` ${index.where.column} ${index.where.is}` : ''}`,
    );
}

describe("a localized type's locale indexes", () => {
  it('with draft & publish: one partial index per status on locale', () => {
    expect(cairnIndexesOfTags({ draftAndPublish: true, localized: true })).toEqual([
      'tags_published_locale_idx (locale) published_at notNull',
      'tags_draft_locale_idx (locale) published_at null',
    ]);
  });

  it('without draft & publish: one index on locale', () => {
    expect(cairnIndexesOfTags({ draftAndPublish: false, localized: true })).toEqual(['tags_locale_idx (locale)']);
  });

  it('not localized: none', () => {
    expect(cairnIndexesOfTags({ draftAndPublish: true, localized: false })).toEqual([]);
  });
});
