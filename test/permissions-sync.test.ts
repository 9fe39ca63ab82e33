import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadProject } from '../src/project/load-project.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-perm-'));
cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function statusOf(path: string): Promise<number> {
  const app = await createApp(await loadProject(dir, {}));
  try {
    return (await app.server.inject({ method: 'GET', url: path })).statusCode;
  } finally {
    await app.close();
  }
}

async function publicActions(): Promise<string[]> {
  const app = await createApp(await loadProject(dir, {}));
  try {
    const rows = await app.db.all({
      sql: `select p.action from up_permissions p join up_permissions_role_lnk l on l.permission_id = p.id join up_roles r on r.id = l.role_id where r.type = ? order by p.action`,
      params: ['public'],
    });
    return rows.map((row) => String(row.action));
  } finally {
    await app.close();
  }
}

describe('permissions as code are re-applied at every start', () => {
  it('grants what config/permissions.js lists', async () => {
    writeFileSync(join(dir, 'config/permissions.js'), "module.exports = { public: ['api::tag.tag.find', 'api::article.article.find'] };");
    expect(await statusOf('/api/articles')).toBe(200);
  });

  it('revokes what it no longer lists, keeps the plugin defaults, never duplicates', async () => {
    writeFileSync(join(dir, 'config/permissions.js'), "module.exports = { public: ['api::tag.tag.find'] };");
    expect(await statusOf('/api/articles')).toBe(403);
    expect(await statusOf('/api/tags')).toBe(200);
    const actions = await publicActions();
    expect(actions).toEqual([...new Set(actions)]);
    expect(actions).toContain('plugin::users-permissions.auth.register');
    expect(actions).not.toContain('api::article.article.find');
  });

  it('leaves stored permissions alone when the role is not listed', async () => {
    writeFileSync(join(dir, 'config/permissions.js'), 'module.exports = { authenticated: [] };');
    expect(await statusOf('/api/tags')).toBe(200);
  });

  it('ignores unknown actions with a notice', async () => {
    writeFileSync(join(dir, 'config/permissions.js'), "module.exports = { public: ['api::tag.tag.find', 'api::nope.nope.find'] };");
    const app = await createApp(await loadProject(dir, {}));
    try {
      expect(app.notices).toContain('config/permissions: role "public": unknown action "api::nope.nope.find" ignored');
    } finally {
      await app.close();
    }
  });
});
