import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ARTICLES,
  expectError,
  inviteAdmin,
  startAdminClient,
  type AdminClient,
  type InvitedAdmin,
} from './support/admin-client.js';
import type { TestResponse } from './support/test-server.js';

/*
 * The list view's "Created by" and "Updated by" filters and columns, as Strapi 5.54's admin sends
 * them: `filters[$and][0][createdBy][id][$eq]=1` (or `$ne`), and a click on the column header sorts
 * by the creator's main field, `sort=createdBy.firstname:ASC`. The admin may filter and sort by a
 * creator's public fields whatever their role; the content API keeps refusing the creator fields,
 * which are private there, on every database.
 */
const ONLY_FIXTURE = 'filters[$and][9][summary][$eq]=creators';

for (const database of inject('databases')) {
  describe(`[${database}] the content manager's list by creator`, () => {
    let client: AdminClient;
    let editor: InvitedAdmin;
    let ids: Record<'boss' | 'editor', number>;

    /** The titles a list query answers (restricted to this file's articles), sorted unless `ordered`. */
    const titles = async (query: string, as: 'boss' | 'editor' = 'boss', ordered = false): Promise<string[]> => {
      const path = `${ARTICLES}?${ONLY_FIXTURE}&${query.replace(/\{\{(\w+)\}\}/g, (_, name: 'boss' | 'editor') => String(ids[name]))}`;
      const response: TestResponse = await (as === 'boss' ? client.call('GET', path) : editor.call('GET', path));
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      const listed = response.json.results.map((item: { title: string }) => item.title);
      return ordered ? listed : listed.sort();
    };

    beforeAll(async () => {
      client = await startAdminClient(database);
      editor = await inviteAdmin(client, { firstname: 'Zed', lastname: 'Editor', email: 'zed@example.com' });
      ids = { boss: client.adminId, editor: editor.id };
      const create = async (as: 'boss' | 'editor', title: string) => {
        const response = await (as === 'boss' ? client : editor).call('POST', ARTICLES, { title, summary: 'creators' });
        expect(response.status, response.text).toBe(201);
        return response.json.data.documentId as string;
      };
      const bossFirst = await create('boss', 'Boss first');
      await create('boss', 'Boss second');
      await create('editor', 'Editor own');
      const edited = await editor.call('PUT', `${ARTICLES}/${bossFirst}`, { summary: 'creators', views: 2 });
      expect(edited.json.data.updatedBy).toMatchObject({ id: ids.editor, firstname: 'Zed' });
    });
    afterAll(() => client?.server.close());

    it('filters the list by who created or last updated a document, as the panel sends it', async () => {
      const cases: [string, string[]][] = [
        ['filters[$and][0][createdBy][id][$eq]={{boss}}', ['Boss first', 'Boss second']],
        ['filters[$and][0][createdBy][id][$eq]={{editor}}', ['Editor own']],
        ['filters[$and][0][createdBy][id][$ne]={{boss}}', ['Editor own']],
        ['filters[$and][0][updatedBy][id][$eq]={{editor}}', ['Boss first', 'Editor own']],
        ['filters[$and][0][updatedBy][id][$ne]={{editor}}', ['Boss second']],
        [
          'filters[$and][0][createdBy][id][$eq]={{boss}}&filters[$and][1][updatedBy][id][$eq]={{editor}}',
          ['Boss first'],
        ],
        ['filters[$and][0][createdBy][firstname][$eq]=Zed', ['Editor own']],
        ['filters[$and][0][createdBy][email][$containsi]=EDITOR@', ['Boss first', 'Boss second']],
        ['filters[$and][0][createdBy][lastname][$in][0]=Editor', ['Boss first', 'Boss second', 'Editor own']],
        ['filters[$and][0][createdBy][isActive][$eq]=true', ['Boss first', 'Boss second', 'Editor own']],
        ['filters[$and][0][createdBy][id][$null]=true', []],
        ['filters[$and][0][createdBy][id][$eq]=999999', []],
      ];
      for (const [query, expected] of cases) expect(await titles(query), query).toEqual(expected);
    });

    it('lets an admin without the Super Admin role filter by creator too', async () => {
      expect(await titles('filters[$and][0][createdBy][id][$eq]={{boss}}', 'editor')).toEqual([
        'Boss first',
        'Boss second',
      ]);
      expect(await titles('filters[$and][0][updatedBy][id][$eq]={{editor}}', 'editor')).toEqual([
        'Boss first',
        'Editor own',
      ]);
    });

    it('sorts the list by a creator’s main field, as the column header does', async () => {
      // Eda (the boss) before Zed; ties by title.
      expect(await titles('sort=createdBy.firstname:ASC,title:ASC', 'boss', true)).toEqual([
        'Boss first',
        'Boss second',
        'Editor own',
      ]);
      expect(await titles('sort=createdBy.firstname:DESC,title:ASC', 'editor', true)).toEqual([
        'Editor own',
        'Boss first',
        'Boss second',
      ]);
      expect(await titles('sort[0][updatedBy][firstname]=desc&sort[1]=title:desc', 'boss', true)).toEqual([
        'Editor own',
        'Boss first',
        'Boss second',
      ]);
    });

    it('drops the keys of a creator Strapi’s admin drops, and refuses sorting by them', async () => {
      const all = ['Boss first', 'Boss second', 'Editor own'];
      for (const query of [
        'filters[$and][0][createdBy][password][$eq]=x',
        'filters[$and][0][createdBy][roles][id][$eq]=1',
        'filters[$and][0][createdBy][resetPasswordToken][$null]=false',
        'filters[$and][0][createdBy][registrationToken][$notNull]=true',
      ])
        expect(await titles(query), query).toEqual(all);
      expectError(
        await client.call('GET', `${ARTICLES}?sort=createdBy.password:ASC`),
        400,
        'ValidationError',
        'Invalid key password at createdBy.password',
      );
      expectError(
        await client.call('GET', `${ARTICLES}?sort=updatedBy.roles.name:ASC`),
        400,
        'ValidationError',
        'Invalid key roles at updatedBy.roles',
      );
    });

    it('keeps refusing the creator fields on the content API, where they are private', async () => {
      for (const [query, key] of [
        [`filters[createdBy][id][$eq]=${client.adminId}`, 'createdBy'],
        ['filters[$and][0][updatedBy][id][$ne]=1', 'updatedBy'],
        ['sort=createdBy.firstname:asc', 'createdBy'],
      ]) {
        const response = await client.api('GET', `/api/articles?${query}`);
        expectError(response, 400, 'ValidationError', `Invalid key ${key}`);
        expect(response.json.error.details).toMatchObject({ key, source: 'query' });
      }
    });
  });
}
