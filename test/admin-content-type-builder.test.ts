import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectError, startAdminClient, type AdminClient } from './support/admin-client.js';

/*
 * The Content-Type Builder, read-only as Strapi shows it in production mode: the schema of every
 * content type and component as the builder lists it, the reserved names, and schema changes
 * refused with a message naming the files to edit, on every database.
 */
for (const database of inject('databases')) {
  describe(`[${database}] the Content-Type Builder's routes`, () => {
    let client: AdminClient;
    beforeAll(async () => {
      client = await startAdminClient(database);
    });
    afterAll(() => client?.server.close());

    it('lists the project types and components with their declared attributes, and Strapi’s own types', async () => {
      const response = await client.call('GET', '/content-type-builder/schema');
      expect(response.status).toBe(200);
      const { contentTypes, components } = response.json.data;
      expect(Object.keys(contentTypes)).toEqual(
        expect.arrayContaining(['api::article.article', 'api::global.global', 'admin::user', 'plugin::upload.file']),
      );
      const article = contentTypes['api::article.article'];
      expect(article).toMatchObject({
        uid: 'api::article.article',
        modelName: 'article',
        globalId: 'Article',
        modelType: 'contentType',
        kind: 'collectionType',
        collectionName: 'articles',
        info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
        options: { draftAndPublish: true },
        pluginOptions: { i18n: { localized: true } },
        visible: true,
        restrictRelationsTo: null,
      });
      const names = article.attributes.map((attribute: { name: string }) => attribute.name);
      expect(names.slice(0, 3)).toEqual(['title', 'slug', 'summary']);
      for (const added of ['id', 'documentId', 'createdAt', 'publishedAt', 'createdBy', 'locale', 'localizations'])
        expect(names).not.toContain(added);
      expect(article.attributes.find((a: { name: string }) => a.name === 'author')).toEqual({
        name: 'author',
        type: 'relation',
        relation: 'manyToOne',
        target: 'api::author.author',
        inversedBy: 'articles',
        targetAttribute: 'articles',
      });
      expect(contentTypes['admin::user']).toMatchObject({ restrictRelationsTo: ['oneWay', 'manyWay'] });
      expect(contentTypes['plugin::upload.file']).toMatchObject({ plugin: 'upload', restrictRelationsTo: [] });
      expect(components['shared.seo']).toMatchObject({
        uid: 'shared.seo',
        category: 'shared',
        globalId: 'ComponentSharedSeo',
        modelType: 'component',
        collectionName: 'components_shared_seos',
        info: { displayName: 'Seo', icon: 'search' },
      });
      expect(components['shared.seo'].attributes.map((a: { name: string }) => a.name)).toEqual([
        'metaTitle',
        'metaDescription',
        'shareImage',
        'keywords',
      ]);
    });

    it('answers the reserved names and that no schema update runs', async () => {
      const reserved = await client.call('GET', '/content-type-builder/reserved-names');
      expect(reserved.json.models).toContain('document');
      expect(reserved.json.attributes).toEqual(expect.arrayContaining(['id', 'document_id', 'locale', 'meta']));
      expect((await client.call('GET', '/content-type-builder/update-schema-status')).json).toEqual({
        data: { isUpdating: false },
      });
    });

    it('refuses schema changes with the files to edit instead, and needs an admin', async () => {
      const update = await client.call('POST', '/content-type-builder/update-schema', {
        data: { contentTypes: [{ action: 'delete', uid: 'api::tag.tag' }], components: [] },
      });
      expectError(update, 403, 'PolicyError', /schema\.json/);
      expect(
        (await client.call('GET', '/content-type-builder/schema')).json.data.contentTypes['api::tag.tag'],
      ).toBeDefined();
      for (const path of ['/content-type-builder/schema', '/content-type-builder/reserved-names'])
        expectError(await client.server.request('GET', path), 401, 'UnauthorizedError');
    });
  });
}
