import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../core/errors.js';
import { readModelFiles } from '../../project/read-model-files.js';
import { buildSchema } from '../../schema/build-schema.js';
import { BUILTIN_CONTENT_TYPES } from '../../schema/builtin-types.js';
import type { RawContentType } from '../../schema/raw-types.js';
import { createDefaultConfiguration, syncConfiguration, type Configuration } from './cm-configuration.js';
import { parseConfigurationInput } from './cm-configuration-input.js';
import { guidedTourMeta } from './cm-guided-tour.js';
import { buildContentManagerSchemas, contentManagerDto, type CmModel } from './cm-schemas.js';
import type { ModelDefinitions } from './cm-strapi-models.js';

const files = readModelFiles(resolve(import.meta.dirname, '../../../examples/blog'));
const schemaOf = (definitions: ModelDefinitions) =>
  buildSchema([...BUILTIN_CONTENT_TYPES, ...definitions.contentTypes], definitions.components);
const schema = schemaOf(files);
const schemas = buildContentManagerSchemas(schema, files);
const model = (uid: string): CmModel => {
  const found = schemas.contentTypes.get(uid) ?? schemas.components.get(uid);
  if (!found) throw new Error(`no model ${uid}`);
  return found;
};
const defaults = (uid: string) => createDefaultConfiguration(model(uid), schemas);

/** Strapi 5.54's answer for the article's configuration (test/fixtures/admin). */
const recorded = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../../test/fixtures/admin/cm-article-configuration.json'), 'utf8'),
) as { data: { contentType: Configuration; components: Record<string, Configuration> } };

/** Metadatas without the `list.mainField` the configuration route copies from `edit.mainField`. */
const storedForm = (metadatas: Configuration['metadatas']) =>
  Object.fromEntries(
    Object.entries(metadatas).map(([name, { edit, list }]) => {
      const { mainField: _copied, ...rest } = list;
      return [name, { edit, list: rest }];
    }),
  );

describe("the content manager's descriptions (/content-manager/init)", () => {
  it("lists content types in Strapi's registry order and components as Strapi 5.54 registers them", () => {
    const uids = [...schemas.contentTypes.keys()];
    expect(uids.slice(0, 3)).toEqual(['plugin::upload.file', 'plugin::upload.folder', 'plugin::i18n.locale']);
    expect(uids.slice(10, 15)).toEqual([
      'api::article.article',
      'api::author.author',
      'api::global.global',
      'api::secret.secret',
      'api::tag.tag',
    ]);
    expect(uids.at(-1)).toBe('admin::session');
    expect([...schemas.components.keys()]).toEqual([
      'shared.seo',
      'shared.rich-text',
      'shared.quote',
      'shared.media-block',
      'shared.keyword',
    ]);
  });

  it('describes a type with id first, its visible attributes as declared, timestamps, creators and documentId last', () => {
    const article = contentManagerDto(model('api::article.article'));
    expect(Object.keys(article.attributes as object)).toEqual([
      'id',
      ...Object.keys(
        files.contentTypes.find((type) => type.uid === 'api::article.article')?.definition.attributes ?? {},
      ),
      'createdAt',
      'updatedAt',
      'createdBy',
      'updatedBy',
      'documentId',
    ]);
    expect(article).toMatchObject({
      uid: 'api::article.article',
      apiID: 'article',
      isDisplayed: true,
      kind: 'collectionType',
      info: { description: 'Reference content-type exercising every attribute kind' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
    });
    expect((article.attributes as Record<string, unknown>).author).toEqual({
      type: 'relation',
      relation: 'manyToOne',
      target: 'api::author.author',
      inversedBy: 'articles',
      targetModel: 'api::author.author',
      relationType: 'manyToOne',
    });
    expect((article.attributes as Record<string, unknown>).cover).toMatchObject({ required: false, multiple: false });
  });

  it("echoes Strapi's own definitions of the built-in types, without morph relations", () => {
    const user = contentManagerDto(model('admin::user'));
    expect(user.isDisplayed).toBe(false);
    expect(user.info).toEqual({
      singularName: 'user',
      pluralName: 'users',
      displayName: 'User',
      name: 'User',
      description: '',
    });
    expect((user.attributes as Record<string, unknown>).firstname).toEqual({
      type: 'string',
      minLength: 1,
      configurable: false,
      required: false,
      unique: false,
    });
    const file = model('plugin::upload.file');
    expect(file.attributes.related).toBeUndefined();
    expect(file.attributes.folder?.configurable).toBeUndefined();
    expect(model('plugin::review-workflows.workflow-stage').options).toEqual({
      version: '1.1.0',
      draftAndPublish: false,
    });
    expect(contentManagerDto(model('shared.seo'))).toMatchObject({
      category: 'shared',
      apiID: 'seo',
      info: { displayName: 'Seo', icon: 'search', description: '' },
      options: {},
    });
  });

  it('rebuilds the descriptions from the typed schema when the model files are not given', () => {
    const rebuilt = buildContentManagerSchemas(schema).contentTypes.get('api::article.article');
    expect(Object.keys(rebuilt?.attributes ?? {})).toEqual(Object.keys(model('api::article.article').attributes));
    expect(rebuilt?.attributes.title).toEqual(model('api::article.article').attributes.title);
  });
});

describe('default configurations', () => {
  it("are the article's configuration Strapi 5.54 generates, its components' too", () => {
    const expected = recorded.data.contentType;
    const article = defaults('api::article.article');
    expect(article.settings).toEqual(expected.settings);
    expect(article.layouts).toEqual(expected.layouts);
    expect(article.metadatas).toEqual(storedForm(expected.metadatas));
    for (const [uid, component] of Object.entries(recorded.data.components)) {
      const generated = defaults(uid);
      expect(generated.settings, uid).toEqual(component.settings);
      expect(generated.layouts, uid).toEqual(component.layouts);
      expect(generated.metadatas, uid).toEqual(component.metadatas);
    }
  });

  it('pack the edit view in rows of 12 and list the first four listable attributes, never documentId', () => {
    expect(defaults('shared.rich-text').layouts).toEqual({ list: ['id'], edit: [[{ name: 'body', size: 12 }]] });
    expect(defaults('api::tag.tag').layouts).toEqual({
      list: ['id', 'name', 'articles', 'createdAt'],
      edit: [
        [
          { name: 'name', size: 6 },
          { name: 'articles', size: 6 },
        ],
      ],
    });
  });

  it('take the first string attribute as main field, documentId for components without one', () => {
    const mainField = (uid: string) => defaults(uid).settings.mainField;
    expect(mainField('shared.media-block')).toBe('documentId');
    expect(mainField('admin::session')).toBe('userId');
    expect(mainField('plugin::content-releases.release-action')).toBe('contentType');
    expect(defaults('api::article.article').metadatas.createdBy?.edit.mainField).toBe('firstname');
  });
});

describe('syncing a stored configuration with a changed schema', () => {
  const withArticle = (change: (attributes: Record<string, Record<string, unknown>>) => void): CmModel => {
    const contentTypes = files.contentTypes.map((type): RawContentType => {
      if (type.uid !== 'api::article.article') return type;
      const attributes = { ...(type.definition.attributes as Record<string, Record<string, unknown>>) };
      change(attributes);
      return { ...type, definition: { ...type.definition, attributes } };
    });
    const changed = buildContentManagerSchemas(schemaOf({ ...files, contentTypes }), { ...files, contentTypes });
    const found = changed.contentTypes.get('api::article.article');
    if (!found) throw new Error('no article');
    return found;
  };
  const arranged = {
    uid: 'api::article.article',
    settings: {
      ...defaults('api::article.article').settings,
      pageSize: 50,
      mainField: 'slug',
      defaultSortBy: 'summary',
    },
    metadatas: {
      ...defaults('api::article.article').metadatas,
      title: {
        edit: { label: 'Headline', description: '', placeholder: '', visible: true, editable: true },
        list: { label: 'Headline', searchable: true, sortable: true },
      },
    },
    layouts: {
      list: ['title', 'summary', 'id'],
      edit: [
        [
          { name: 'summary', size: 6 },
          { name: 'title', size: 6 },
        ],
        [
          { name: 'meta', size: 12 },
          { name: 'slug', size: 4 },
        ],
      ],
    },
  };

  it('keeps what the editor arranged, drops removed attributes and appends new ones', () => {
    const article = withArticle((attributes) => {
      delete attributes.summary;
      attributes.subtitle = { type: 'string' };
    });
    const synced = syncConfiguration(arranged, article, schemas);
    expect(synced.layouts.list).toEqual(['title', 'id', 'subtitle']);
    expect(synced.layouts.edit).toEqual([
      [{ name: 'title', size: 6 }],
      [
        { name: 'meta', size: 12 },
        { name: 'slug', size: 4 },
      ],
      [{ name: 'subtitle', size: 6 }],
    ]);
    expect(synced.metadatas.title?.edit.label).toBe('Headline');
    expect(synced.metadatas.summary).toBeUndefined();
    expect(synced.metadatas.subtitle?.list).toEqual({ label: 'subtitle', searchable: true, sortable: true });
    expect(synced.settings).toMatchObject({ pageSize: 50, mainField: 'slug', defaultSortBy: 'title' });
  });

  it('moves a field whose new type does not allow its stored size to the end, at its default size', () => {
    const synced = syncConfiguration(
      arranged,
      withArticle((attributes) => (attributes.slug = { type: 'json' })),
      schemas,
    );
    expect(synced.layouts.edit).toEqual([
      [
        { name: 'summary', size: 6 },
        { name: 'title', size: 6 },
      ],
      [{ name: 'meta', size: 12 }],
      [{ name: 'slug', size: 12 }],
    ]);
  });

  it('generates what is missing from a stored value', () => {
    expect(syncConfiguration({ uid: 'api::tag.tag' }, model('api::tag.tag'), schemas)).toEqual(
      defaults('api::tag.tag'),
    );
  });
});

describe('configuration updates (PUT …/configuration)', () => {
  const tag = model('api::tag.tag');

  it('accept what the admin panel sends back', () => {
    const { settings, metadatas, layouts } = defaults('api::tag.tag');
    expect(parseConfigurationInput({ settings, metadatas, layouts }, tag, schemas)).toEqual({
      settings,
      metadatas,
      layouts,
    });
    expect(parseConfigurationInput({ settings: null }, tag, schemas)).toEqual({});
  });

  it('refuse a body that does not fit the model with Strapi’s 400', () => {
    const attempt = () =>
      parseConfigurationInput(
        {
          settings: { bulkable: true, filterable: true, searchable: true, pageSize: 500 },
          layouts: { list: ['nope'] },
          extra: 1,
        },
        tag,
        schemas,
      );
    expect(attempt).toThrow(BadRequestError);
    try {
      attempt();
    } catch (error) {
      expect((error as BadRequestError).details).toEqual({
        name: 'validationError',
        errors: [
          'this field has unspecified keys: extra',
          'settings.pageSize must be less than or equal to 100',
          expect.stringMatching(/^layouts\.list\[0\] must be one of the following values: id, name/),
          'layouts.edit is required and must be an array',
        ],
      });
    }
  });
});

describe('guided tour meta', () => {
  it('tells whether the admin is the first Super Admin and describes every content type', () => {
    const meta = guidedTourMeta(schema, true, files);
    expect(meta.isFirstSuperAdminUser).toBe(true);
    expect(Object.keys(meta.schemas)).toHaveLength(schemas.contentTypes.size);
    expect(meta.schemas['api::article.article']).toMatchObject({
      globalId: 'Article',
      apiName: 'article',
      modelName: 'article',
    });
    expect(meta.schemas['plugin::i18n.locale']).toMatchObject({ globalId: 'I18NLocale', plugin: 'i18n' });
    expect(meta.schemas['admin::user']).toMatchObject({
      globalId: 'AdminUser',
      config: { attributes: { registrationToken: { hidden: true } } },
    });
  });
});
