import { describe, expect, it } from 'vitest';
import { validationError } from '../../test/support/unit.js';
import { parseNewRole, parseRoleChanges, roleTypeOf } from './role-input.js';

const known = new Set(['api::tag.tag.find', 'api::tag.tag.findOne']);
const grantFind = {
  'api::tag': {
    controllers: { tag: { find: { enabled: true, policy: '' }, findOne: { enabled: false, policy: '' } } },
  },
};

describe('roleTypeOf (lodash snakeCase(deburr(toLower(name))))', () => {
  it.each([
    ['Editors', 'editors'],
    ['Editors 2', 'editors_2'],
    ['Chief Editors', 'chief_editors'],
    ["Chef's Crew", 'chefs_crew'],
    ['Rédacteur-en-chef', 'redacteur_en_chef'],
    ['  Straße  ', 'strasse'],
    ['editors2', 'editors_2'],
    ['---', ''],
  ])('%j → %j', (name, type) => {
    expect(roleTypeOf(name)).toBe(type);
  });
});

describe('parseNewRole', () => {
  it('derives the type, keeps the description and reads the enabled actions', () => {
    expect(
      parseNewRole({ name: 'Éditeurs en chef', description: 'd', permissions: grantFind, users: [1] }, known),
    ).toEqual({
      name: 'Éditeurs en chef',
      description: 'd',
      type: 'editeurs_en_chef',
      actions: ['api::tag.tag.find'],
    });
  });

  it('keeps a given type; an empty one is derived, as Strapi does', () => {
    expect(parseNewRole({ name: 'Editors', type: 'ed' }, known)).toEqual({ name: 'Editors', type: 'ed', actions: [] });
    expect(parseNewRole({ name: 'Editors', type: '' }, known)).toEqual({
      name: 'Editors',
      type: 'editors',
      actions: [],
    });
    expect(parseNewRole({ name: 'Editors', description: null }, known)).toEqual({
      name: 'Editors',
      description: null,
      type: 'editors',
      actions: [],
    });
  });

  it.each([
    [undefined, 'Request body cannot be empty'],
    [{}, 'Request body cannot be empty'],
    [[], 'Request body cannot be empty'],
    [[1], 'The request body must be a JSON object'],
    ['Editors', 'The request body must be a JSON object'],
    [{ description: 'x' }, 'name is a required field'],
    [{ name: '' }, 'name is a required field'],
    [{ name: null }, 'name is a required field'],
    [{ name: 'ab' }, 'name must be at least 3 characters'],
    [{ name: ['abc'] }, 'name must be a `string` type, but the final value was: `["abc"]`.'],
    [{ name: 'x'.repeat(256) }, 'name must be at most 255 characters'],
    [{ name: 'Editors', description: 3 }, 'description must be a `string` type, but the final value was: `3`.'],
    [{ name: 'Editors', type: 3 }, 'type must be a `string` type, but the final value was: `3`.'],
    [{ name: '!!!' }, 'type cannot be derived from this name: give a type'],
    [{ name: 'Editors', permissions: null }, 'permissions must be an object'],
    [{ description: 1 }, '2 errors occurred'],
  ])('refuses %j', (body, message) => {
    expect(validationError(() => parseNewRole(body, known)).message).toBe(message);
  });
});

describe('parseRoleChanges', () => {
  it('returns only what the body gives; type is ignored', () => {
    expect(parseRoleChanges({ type: 'x' }, known)).toEqual({});
    expect(parseRoleChanges({ name: 'Editors', description: null }, known)).toEqual({
      name: 'Editors',
      description: null,
    });
    expect(parseRoleChanges({ permissions: grantFind }, known)).toEqual({ actions: ['api::tag.tag.find'] });
    expect(parseRoleChanges({ permissions: {} }, known)).toEqual({ actions: [] });
  });

  it.each([
    [{}, 'Request body cannot be empty'],
    [{ name: null }, 'name cannot be null'],
    [{ name: 'ab' }, 'name must be at least 3 characters'],
    [
      { permissions: { 'api::tag': { controllers: { tag: { create: { enabled: true } } } } } },
      'Unknown action: api::tag.tag.create',
    ],
  ])('refuses %j', (body, message) => {
    expect(validationError(() => parseRoleChanges(body, known)).message).toBe(message);
  });
});
