import { describe, expect, it } from 'vitest';
import { validationError } from '../../test/support/unit.js';
import { buildPermissionTree, enabledActions } from './permission-tree.js';

const known = new Set([
  'plugin::upload.content-api.find',
  'api::tag.tag.find',
  'api::tag.tag.findOne',
  'api::global.global.find',
]);

describe('buildPermissionTree', () => {
  it('groups actions by type and controller, enabled where granted', () => {
    expect(buildPermissionTree(['api::tag.tag.find', 'api::tag.tag.findOne'], new Set(['api::tag.tag.find']))).toEqual({
      'api::tag': {
        controllers: { tag: { find: { enabled: true, policy: '' }, findOne: { enabled: false, policy: '' } } },
      },
    });
  });

  it('lists content types before plugins and leaves out granted actions it does not know', () => {
    const tree = buildPermissionTree(known, new Set(['api::removed.removed.find', 'plugin::upload.content-api.find']));
    expect(Object.keys(tree)).toEqual(['api::tag', 'api::global', 'plugin::upload']);
    expect(tree['plugin::upload']).toEqual({ controllers: { 'content-api': { find: { enabled: true, policy: '' } } } });
    expect(JSON.stringify(tree)).not.toContain('removed');
  });
});

describe('enabledActions', () => {
  it('returns the enabled actions in tree order', () => {
    const tree = {
      'api::tag': { controllers: { tag: { find: { enabled: true }, findOne: { enabled: false, policy: '' } } } },
      'api::global': { controllers: { global: { find: { enabled: true, policy: 'x' } } } },
    };
    expect(enabledActions(tree, known)).toEqual(['api::tag.tag.find', 'api::global.global.find']);
  });

  it('accepts an empty tree and the tree it builds', () => {
    expect(enabledActions({}, known)).toEqual([]);
    expect(enabledActions(buildPermissionTree(known, new Set(['api::tag.tag.findOne'])), known)).toEqual([
      'api::tag.tag.findOne',
    ]);
  });

  it('refuses enabled unknown actions, naming them all; ignores disabled ones', () => {
    const tree = {
      'api::nope': { controllers: { nope: { find: { enabled: true }, create: { enabled: false } } } },
      'api::tag': { controllers: { tag: { fly: { enabled: true } } } },
    };
    const error = validationError(() => enabledActions(tree, known));
    expect(error.message).toBe('Unknown actions: api::nope.nope.find, api::tag.tag.fly');
    expect(error.details).toEqual({ actions: ['api::nope.nope.find', 'api::tag.tag.fly'] });
    expect(
      validationError(() =>
        enabledActions({ 'api::nope': { controllers: { nope: { find: { enabled: true } } } } }, known),
      ).message,
    ).toBe('Unknown action: api::nope.nope.find');
  });

  it.each([
    [null, 'permissions must be an object'],
    [[], 'permissions must be an object'],
    [{ 'api::tag': 1 }, 'permissions.api::tag must be an object'],
    [{ 'api::tag': {} }, 'permissions.api::tag.controllers must be an object'],
    [{ 'api::tag': { controllers: { tag: [] } } }, 'permissions.api::tag.controllers.tag must be an object'],
    [
      { 'api::tag': { controllers: { tag: { find: true } } } },
      'permissions.api::tag.controllers.tag.find must be an object',
    ],
    [
      { 'api::tag': { controllers: { tag: { find: {} } } } },
      'permissions.api::tag.controllers.tag.find.enabled must be a boolean',
    ],
    [
      { 'api::tag': { controllers: { tag: { find: { enabled: 1 } } } } },
      'permissions.api::tag.controllers.tag.find.enabled must be a boolean',
    ],
  ])('refuses a malformed tree: %j', (tree, message) => {
    const error = validationError(() => enabledActions(tree, known));
    expect(error.message).toBe(message);
  });

  it('reports every malformed entry at once, with its path', () => {
    const error = validationError(() =>
      enabledActions({ 'api::tag': { controllers: { tag: { find: { enabled: 'yes' }, findOne: 2 } } } }, known),
    );
    expect(error.message).toBe('2 errors occurred');
    expect(error.details).toEqual({
      errors: [
        {
          path: ['permissions', 'api::tag', 'controllers', 'tag', 'find', 'enabled'],
          message: 'permissions.api::tag.controllers.tag.find.enabled must be a boolean',
          name: 'ValidationError',
          value: 'yes',
        },
        {
          path: ['permissions', 'api::tag', 'controllers', 'tag', 'findOne'],
          message: 'permissions.api::tag.controllers.tag.findOne must be an object',
          name: 'ValidationError',
          value: 2,
        },
      ],
    });
  });
});
