import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../databases.js';
import { NOTES } from '../uploads.js';
import { create, expectCleanStart, smallPng, startProject, uploadFile, type StartedProject } from './start-project.js';

/*
 * The blog starter (test/fixtures/projects/rich-text-starter): a CKEditor 5 body and colour
 * picker fields from plugins, in the type and in its components, and users-permissions' user
 * extended under src/extensions with fields and a relation back from articles.
 */

type Doc = Record<string, any>;

/** The blog starter's scenario on one database. */
export function richTextStarterScenario(database: DatabaseKind): void {
  describe(`[${database}] blog starter: rich-text and colour custom fields, users-permissions extended`, () => {
    let project: StartedProject;
    let jwt: string;
    let user: Doc;
    let article: Doc;
    const BODY = '<h2>Hello</h2><p>A <strong>bold</strong> start &amp; more.</p>';

    beforeAll(async () => {
      const png = await smallPng();
      project = await startProject('rich-text-starter', database);
      const registered = await project.server.request('POST', '/api/auth/local/register', {
        body: {
          username: 'writer',
          email: 'writer@example.com',
          password: 'Writer1234',
          displayName: 'The Writer',
          bio: '## About me\n\nI *write*.',
          favoriteColor: '#00AA88',
        },
      });
      expect(registered.status, registered.text).toBe(200);
      jwt = registered.json.jwt;
      user = registered.json.user;
      const cover = await uploadFile(project.server, 'cover.png', png, 'image/png');
      const notes = await uploadFile(project.server, 'notes.txt', NOTES, 'text/plain');
      const category = await create(project, 'categories', { name: 'Guides', slug: 'guides', color: '#123ABC' });
      article = await create(project, 'articles', {
        title: 'Colours and words',
        description: 'Custom fields at work',
        body: BODY,
        accentColor: '#FF7043',
        cover,
        writer: user.documentId,
        category: category.documentId,
        blocks: [
          { __component: 'shared.rich-text', body: '# Title\n\nSome *markdown*.' },
          { __component: 'shared.callout', tone: 'tip', color: '#FFF', content: '<p>Careful</p>' },
          { __component: 'shared.media', file: notes },
          { __component: 'shared.slider', files: [cover] },
        ],
        seo: { metaTitle: 'Colours', metaDescription: 'Custom fields', shareImage: cover },
      });
      await create(project, 'articles', { title: 'Plain post', body: '<p>plain</p>', accentColor: '#000000' });
    });
    afterAll(() => project.server.close());

    it("starts unchanged, with the extended user schema laid over the plugin's", () => {
      expectCleanStart(project, 0, ['ckeditor5', 'color-picker']);
      const attributes = project.server.app.project.schema.contentTypes.get(
        'plugin::users-permissions.user',
      )!.attributes;
      expect(
        ['displayName', 'bio', 'favoriteColor', 'avatar', 'articles'].map((name) => attributes.get(name)?.type),
      ).toEqual(['string', 'richtext', 'string', 'media', 'relation']);
    });

    it('registers and answers the user with the fields the extension adds', async () => {
      expect(user).toMatchObject({ username: 'writer', displayName: 'The Writer', favoriteColor: '#00AA88' });
      expect(user).not.toHaveProperty('password');
      const me = await project.server.request('GET', '/api/users/me', { auth: { jwt } });
      expect(me.status).toBe(200);
      expect(me.json).toMatchObject({ username: 'writer', bio: '## About me\n\nI *write*.', favoriteColor: '#00AA88' });
      const withArticles = await project.call('GET', `/api/users/${user.id}?populate[articles][fields][0]=title`);
      expect(withArticles.json.articles.map((a: Doc) => a.title)).toEqual(['Colours and words']);
      await project.call('PUT', `/api/users/${user.id}`, { favoriteColor: '#112233', bio: 'Shorter.' });
      const found = await project.call(
        'GET',
        '/api/users?filters[favoriteColor][$eq]=%23112233&fields[0]=displayName&fields[1]=bio',
      );
      expect(found.json).toEqual([
        { id: user.id, documentId: user.documentId, displayName: 'The Writer', bio: 'Shorter.' },
      ]);
    });

    it('round-trips the custom field values, in the type and in its dynamic zone', async () => {
      const read = await project.call(
        'GET',
        `/api/articles/${article.documentId}?populate[writer][fields][0]=displayName&populate[category]=true&populate[blocks][populate]=*&populate[seo][populate]=*`,
      );
      const doc = read.json.data as Doc;
      expect([doc.body, doc.accentColor, doc.category.color, doc.writer.displayName]).toEqual([
        BODY,
        '#FF7043',
        '#123ABC',
        'The Writer',
      ]);
      expect(doc.blocks.map((b: Doc) => b.__component)).toEqual([
        'shared.rich-text',
        'shared.callout',
        'shared.media',
        'shared.slider',
      ]);
      expect(doc.blocks[0].body).toBe('# Title\n\nSome *markdown*.');
      expect(doc.blocks[1]).toMatchObject({ tone: 'tip', color: '#FFF', content: '<p>Careful</p>' });
      expect(doc.blocks[2].file).toMatchObject({ name: 'notes.txt', mime: 'text/plain' });
      expect(doc.blocks[3].files.map((f: Doc) => f.name)).toEqual(['cover.png']);
      expect(doc.seo.shareImage.name).toBe('cover.png');
    });

    it('filters and sorts on custom fields and checks their regex', async () => {
      const byColor = await project.call('GET', '/api/articles?filters[accentColor][$eq]=%23FF7043&fields[0]=title');
      expect(byColor.json.data.map((a: Doc) => a.title)).toEqual(['Colours and words']);
      const byBody = await project.call('GET', '/api/articles?filters[body][$contains]=<strong>&fields[0]=title');
      expect(byBody.json.data.map((a: Doc) => a.title)).toEqual(['Colours and words']);
      const sorted = await project.call('GET', '/api/articles?sort=accentColor:asc&fields[0]=accentColor');
      expect(sorted.json.data.map((a: Doc) => a.accentColor)).toEqual(['#000000', '#FF7043']);
      const bad = await project.call('POST', '/api/categories', { data: { name: 'Bad', color: 'red' } }, 400);
      expect(bad.json.error).toMatchObject({ name: 'ValidationError', details: { errors: [{ path: ['color'] }] } });
      await project.call('PUT', '/api/about', {
        data: { title: 'About', intro: BODY, blocks: [{ __component: 'shared.quote', title: 'Q', body: 'Quoted' }] },
      });
      const about = await project.call('GET', '/api/about?populate=blocks');
      expect(about.json.data).toMatchObject({ title: 'About', intro: BODY, blocks: [{ title: 'Q', body: 'Quoted' }] });
    });
  });
}
