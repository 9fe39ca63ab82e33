import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectError } from '../core/errors.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { buildSchema } from '../schema/build-schema.js';
import { applyPluginExtensions } from './plugin-extensions.js';
import { readPluginExtensions } from './read-model-files.js';

const dirs: string[] = [];
function project(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-extensions-'));
  dirs.push(dir);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const USER = 'src/extensions/users-permissions/content-types/user/schema.json';
const userAttributes = BUILTIN_CONTENT_TYPES.find((t) => t.uid === 'plugin::users-permissions.user')!.definition
  .attributes!;
const extendedUser = {
  kind: 'collectionType',
  collectionName: 'up_users',
  info: { name: 'user', singularName: 'user', pluralName: 'users', displayName: 'User' },
  options: { draftAndPublish: false },
  attributes: { ...userAttributes, bio: { type: 'text' }, avatar: { type: 'media', allowedTypes: ['images'] } },
};

describe("the project's schemas under src/extensions/", () => {
  it('are read per plugin and content type, named plugin::<plugin>.<type>', () => {
    const dir = project({
      [USER]: extendedUser,
      'src/extensions/users-permissions/strapi-server.js': 'module.exports = (plugin) => plugin;',
      'src/extensions/upload/content-types/file/schema.json': { attributes: {} },
    });
    expect(readPluginExtensions(dir).map((e) => [e.uid, e.file])).toEqual([
      ['plugin::upload.file', 'src/extensions/upload/content-types/file/schema.json'],
      ['plugin::users-permissions.user', USER],
    ]);
    expect(readPluginExtensions(project({}))).toEqual([]);
  });

  it('a schema that is not JSON stops the load, naming the file', () => {
    const dir = project({ [USER]: '{ "attributes": ' });
    expect(() => readPluginExtensions(dir)).toThrow(ProjectError);
    expect(() => readPluginExtensions(dir)).toThrow(`${USER}: cannot read this schema`);
  });

  it("replace the plugin type's top-level keys as Strapi does: the attributes are the extension's", () => {
    const extension = { uid: 'plugin::users-permissions.user', file: USER, definition: extendedUser };
    const { contentTypes, warnings } = applyPluginExtensions(BUILTIN_CONTENT_TYPES, [extension]);
    expect(warnings).toEqual([]);
    const user = contentTypes.find((t) => t.uid === 'plugin::users-permissions.user')!;
    expect(user).toMatchObject({ origin: 'builtin', file: USER });
    expect(Object.keys(user.definition.attributes!)).toEqual([...Object.keys(userAttributes), 'bio', 'avatar']);
    const schema = buildSchema(contentTypes, []);
    expect(schema.contentTypes.get('plugin::users-permissions.user')?.attributes.get('bio')?.type).toBe('text');
    const onlyBio = applyPluginExtensions(BUILTIN_CONTENT_TYPES, [
      { ...extension, definition: { attributes: { bio: { type: 'text' } } } },
    ]);
    const replaced = onlyBio.contentTypes.find((t) => t.uid === 'plugin::users-permissions.user')!;
    expect(Object.keys(replaced.definition.attributes!)).toEqual(['bio']);
    expect(replaced.definition.collectionName).toBe('up_users');
  });

  it("a third-party plugin's type is left out with a warning; the built-ins are unchanged", () => {
    const file = 'src/extensions/menus/content-types/menu-item/schema.json';
    const { contentTypes, warnings } = applyPluginExtensions(BUILTIN_CONTENT_TYPES, [
      { uid: 'plugin::menus.menu-item', file, definition: { attributes: {} } },
    ]);
    expect(contentTypes).toEqual(BUILTIN_CONTENT_TYPES);
    expect(warnings).toEqual([
      `${file} extends plugin::menus.menu-item, a content type no plugin of the project defines (is the plugin installed and enabled?); the file is ignored`,
    ]);
  });
});
