import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { loadProject } from '../src/project/load-project.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-sync-'));
cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function withApp<T>(work: (app: App) => Promise<T>): Promise<T> {
  const app = await createApp(await loadProject(dir, {}));
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}
const columnsOf = (app: App, table: string) =>
  app.db.all({ sql: `select name from pragma_table_info(?) order by cid`, params: [table] }).then((rows) => rows.map((row) => String(row.name)));

describe("the database layout is Strapi 5's", () => {
  it.each([
    ['articles', ['id', 'document_id', 'title', 'slug', 'summary', 'body', 'content', 'views', 'rating', 'price', 'bigcount', 'is_featured', 'publish_date', 'publish_time', 'event_at', 'stamp', 'meta', 'category', 'contact_email', 'secret_code', 'created_at', 'updated_at', 'published_at', 'created_by_id', 'updated_by_id', 'locale']],
    ['articles_author_lnk', ['id', 'article_id', 'author_id', 'article_ord']],
    ['articles_tags_lnk', ['id', 'article_id', 'tag_id', 'tag_ord', 'article_ord']],
    ['articles_editor_lnk', ['id', 'article_id', 'author_id']],
    ['articles_cmps', ['id', 'entity_id', 'cmp_id', 'component_type', 'field', 'order']],
    ['components_shared_seos', ['id', 'meta_title', 'meta_description']],
    ['components_shared_seos_cmps', ['id', 'entity_id', 'cmp_id', 'component_type', 'field', 'order']],
    ['components_shared_quotes_author_lnk', ['id', 'quote_id', 'author_id']],
    ['files_related_mph', ['id', 'file_id', 'related_id', 'related_type', 'field', 'order']],
    ['up_users_role_lnk', ['id', 'user_id', 'role_id', 'user_ord']],
    ['up_permissions_role_lnk', ['id', 'permission_id', 'role_id', 'permission_ord']],
    ['upload_folders_parent_lnk', ['id', 'folder_id', 'inv_folder_id', 'folder_ord']],
    ['admin_users_roles_lnk', ['id', 'user_id', 'role_id', 'role_ord', 'user_ord']],
    ['strapi_api_token_permissions_token_lnk', ['id', 'api_token_permission_id', 'api_token_id', 'api_token_permission_ord']],
    ['strapi_core_store_settings', ['id', 'key', 'value', 'type', 'environment', 'tag']],
    ['i18n_locale', ['id', 'document_id', 'name', 'code', 'created_at', 'updated_at', 'published_at', 'created_by_id', 'updated_by_id', 'locale']],
  ])('%s', async (table, columns) => {
    await withApp(async (app) => expect(await columnsOf(app, table)).toEqual(columns));
  });

  it('indexes and cascading foreign keys on join tables', async () => {
    await withApp(async (app) => {
      const indexes = await app.db.all({ sql: "select name from sqlite_master where type = 'index' and tbl_name = 'articles_tags_lnk' order by name", params: [] });
      expect(indexes.map((row) => row.name)).toEqual(['articles_tags_lnk_fk', 'articles_tags_lnk_ifk', 'articles_tags_lnk_ofk', 'articles_tags_lnk_oifk', 'articles_tags_lnk_uq']);
      const keys = await app.db.all({ sql: "select \"table\", on_delete from pragma_foreign_key_list('articles_tags_lnk') order by \"table\"", params: [] });
      expect(keys).toEqual([{ table: 'articles', on_delete: 'CASCADE' }, { table: 'tags', on_delete: 'CASCADE' }]);
      const documents = await app.db.all({ sql: "select name from pragma_index_info('articles_documents_idx') order by seqno", params: [] });
      expect(documents.map((row) => row.name)).toEqual(['document_id', 'locale', 'published_at']);
    });
  });
});

describe('schema sync never drops data', () => {
  const tagSchema = join(dir, 'src/api/tag/content-types/tag/schema.json');
  const original = readFileSync(tagSchema, 'utf8');

  it('adds a new attribute as a column and keeps existing rows', async () => {
    await withApp(async (app) => {
      const response = await app.server.inject({ method: 'POST', url: '/api/tags', payload: { data: { name: 'kept' } } });
      expect(response.statusCode).toBe(201);
    });
    const schema = JSON.parse(original);
    schema.attributes.color = { type: 'string' };
    writeFileSync(tagSchema, JSON.stringify(schema));
    await withApp(async (app) => {
      expect(await columnsOf(app, 'tags')).toContain('color');
      const list = await app.server.inject({ method: 'GET', url: '/api/tags' });
      expect(list.json().data).toEqual([expect.objectContaining({ name: 'kept', color: null })]);
    });
  });

  it('keeps the column of a removed attribute and reports it', async () => {
    await withApp(async (app) => {
      await app.server.inject({ method: 'PUT', url: `/api/tags/${(await app.server.inject({ method: 'GET', url: '/api/tags' })).json().data[0].documentId}`, payload: { data: { color: 'red' } } });
    });
    writeFileSync(tagSchema, original);
    await withApp(async (app) => {
      expect(app.notices).toContain('column tags.color is no longer in the schema; kept with its data');
      expect(await app.db.all({ sql: 'select color from tags', params: [] })).toEqual([{ color: 'red' }]);
    });
  });

  it('reports a type change instead of converting', async () => {
    const schema = JSON.parse(original);
    schema.attributes.name = { type: 'integer' };
    writeFileSync(tagSchema, JSON.stringify(schema));
    await withApp(async (app) => {
      expect(app.notices.some((notice) => notice.startsWith('column tags.name has type "varchar(255)" but the schema expects "integer"'))).toBe(true);
      expect(await app.db.all({ sql: 'select name from tags', params: [] })).toEqual([{ name: 'kept' }]);
    });
    writeFileSync(tagSchema, original);
  });
});
