import { describe, expect, it } from 'vitest';
import { rawCollectionType, rawComponent } from '../../test/support/unit.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { buildSchema } from '../schema/build-schema.js';
import { getModel, type Model } from '../schema/types.js';
import { openApiPath, pascalCase, schemaNames } from './openapi-names.js';

describe('pascalCase', () => {
  it.each([
    ['rich-text', 'RichText'],
    ['users-permissions', 'UsersPermissions'],
    ['shared.seo', 'SharedSeo'],
    ['metaTitle', 'MetaTitle'],
    ['a__b  c', 'ABC'],
  ])('%s → %s', (text, expected) => expect(pascalCase(text)).toBe(expected));
});

describe('openApiPath', () => {
  it.each([
    ['/api/articles', '/api', '/articles'],
    ['/api/articles/:documentId', '/api', '/articles/{documentId}'],
    ['/api/connect/*', '/api', '/connect/{provider}'],
    ['/v2/global', '/v2', '/global'],
    ['/articles/:documentId', '', '/articles/{documentId}'],
  ])('%s below %j → %s', (path, prefix, expected) => expect(openApiPath(path, prefix)).toBe(expected));
});

describe('schemaNames', () => {
  const schema = buildSchema(
    [
      ...BUILTIN_CONTENT_TYPES,
      rawCollectionType('api::article.article', 'article', 'articles', { title: { type: 'string' } }),
      rawCollectionType('api::upload-file.upload-file', 'upload-file', 'upload_files', { name: { type: 'string' } }),
    ],
    [rawComponent('shared.rich-text', 'components_shared_rich_texts', { body: { type: 'richtext' } })],
  );
  const models = [
    'api::article.article',
    'api::upload-file.upload-file',
    'plugin::upload.file',
    'shared.rich-text',
    'admin::user',
  ]
    .map((uid) => getModel(schema, uid))
    .filter((model): model is Model => model !== undefined);

  it('names project types by singular name, plugins by plugin and name, components by category and name', () => {
    expect([...schemaNames(models)]).toEqual([
      ['api::article.article', 'Article'],
      // Taken by the upload plugin's file type, which is named first: the project type gets a number.
      ['api::upload-file.upload-file', 'UploadFile2'],
      ['plugin::upload.file', 'UploadFile'],
      ['shared.rich-text', 'SharedRichTextComponent'],
      ['admin::user', 'AdminUser'],
    ]);
  });
});
