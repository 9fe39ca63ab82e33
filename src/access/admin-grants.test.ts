import { describe, expect, it } from 'vitest';
import { grantOf, narrowGrants, type AdminGrant } from './admin-grants.js';

const READ = 'plugin::content-manager.explorer.read';
const DELETE = 'plugin::content-manager.explorer.delete';

describe('grantOf', () => {
  it.each([
    [
      'fields, locales and conditions of a read',
      { action: READ, properties: { fields: ['title'], locales: ['fr'] }, conditions: ['admin::is-creator'] },
      { conditions: [['admin::is-creator']], fields: ['title'], locales: ['fr'] },
    ],
    [
      'no fields on a delete (Strapi drops the property there)',
      { action: DELETE, properties: { fields: ['title'], locales: ['en'] }, conditions: [] },
      { conditions: [], fields: null, locales: ['en'] },
    ],
    [
      'locales missing: no locale (the i18n plugin reads them as [])',
      { action: READ, properties: { fields: ['title'] }, conditions: [] },
      { conditions: [], fields: ['title'], locales: [] },
    ],
    [
      'locales null: every locale',
      { action: READ, properties: { locales: null }, conditions: [] },
      { conditions: [], fields: null, locales: null },
    ],
    [
      'an upload action: no properties apply',
      { action: 'plugin::upload.read', properties: { locales: ['fr'] }, conditions: ['admin::is-creator'] },
      { conditions: [['admin::is-creator']], fields: null, locales: null },
    ],
  ])('%s', (_name, permission, expected) => {
    expect(grantOf(permission)).toEqual(expected);
  });

  it('ignores a permission giving no field at all, as Strapi does', () => {
    expect(grantOf({ action: READ, properties: { fields: [] }, conditions: [] })).toBeNull();
  });
});

describe('narrowGrants', () => {
  it("keeps a token's grant within its owner's: both conditions, the fields and locales both cover", () => {
    const token: AdminGrant = { conditions: [], fields: ['title', 'body'], locales: null };
    const owner: AdminGrant = { conditions: [['admin::is-creator']], fields: ['title'], locales: ['fr'] };
    expect(narrowGrants([token], [owner])).toEqual([
      { conditions: [['admin::is-creator']], fields: ['title'], locales: ['fr'] },
    ]);
    expect(narrowGrants([token], [])).toEqual([]);
  });
});
