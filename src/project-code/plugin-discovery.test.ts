import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverPlugins } from './plugin-discovery.js';
import { pluginEntryFile } from './plugin-entry.js';

const dirs: string[] = [];
function project(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-plugins-'));
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

const pluginPackage = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  version: '1.0.0',
  strapi: { kind: 'plugin', name: name.replace(/^strapi-plugin-/, '') },
  ...extra,
});

describe('discoverPlugins: the plugins whose server code Strapi 5 loads', () => {
  it("config/plugins' declared plugins first, then the installed dependencies that are plugins; enabled: false turns one off", () => {
    const dir = project({
      'package.json': {
        dependencies: {
          'strapi-plugin-seo': '1.0.0',
          'strapi-plugin-menus': '1.0.0',
          lodash: '4.0.0',
          '@strapi/plugin-graphql': '5',
        },
      },
      'node_modules/strapi-plugin-seo/package.json': pluginPackage('strapi-plugin-seo'),
      'node_modules/strapi-plugin-menus/package.json': pluginPackage('strapi-plugin-menus'),
      'node_modules/lodash/package.json': { name: 'lodash' },
      'node_modules/@strapi/plugin-graphql/package.json': {
        name: '@strapi/plugin-graphql',
        strapi: { kind: 'plugin', name: 'graphql' },
      },
      'src/plugins/todo/package.json': pluginPackage('todo'),
    });
    const found = discoverPlugins(dir, {
      todo: { enabled: true, resolve: './src/plugins/todo', config: { greeting: 'Bonjour' } },
      menus: { enabled: false },
      seo: { config: { depth: 2 } },
      'users-permissions': { config: { jwtManagement: 'refresh' } },
    });
    expect(found.plugins.map((plugin) => [plugin.name, plugin.kind, plugin.userConfig])).toEqual([
      ['todo', 'local', { greeting: 'Bonjour' }],
      ['seo', 'package', { depth: 2 }],
    ]);
    expect(found.plugins[1]?.dir).toBe(join(dir, 'node_modules/strapi-plugin-seo'));
    expect(found.disabled).toEqual(['menus']);
  });

  it('warns of a plugin enabled but not installed, and refuses a missing folder or a name not in kebab-case', () => {
    const dir = project({ 'package.json': { dependencies: {} } });
    expect(
      discoverPlugins(dir, { seo: { enabled: true }, menus: { enabled: true, resolve: 'strapi-plugin-menus' } }),
    ).toEqual({
      plugins: [],
      disabled: [],
      missing: [
        "config/plugins enables the plugin seo, but no installed package of the project's dependencies is the Strapi plugin seo: its server part does not run; install it (npm install in the project), or set seo: { enabled: false }",
        'config/plugins enables the plugin menus, but its package strapi-plugin-menus is not installed in the project: its server part does not run; install it (npm install in the project), or set menus: { enabled: false }',
      ],
    });
    expect(() => discoverPlugins(dir, { todo: { enabled: true, resolve: './src/plugins/todo' } })).toThrow(
      "config/plugins: todo.resolve ./src/plugins/todo couldn't be resolved (no such folder in the project)",
    );
    expect(() => discoverPlugins(dir, { myPlugin: { enabled: true, resolve: '.' } })).toThrow(/not in kebab-case/);
    expect(discoverPlugins(dir, { seo: { enabled: false } })).toEqual({ plugins: [], disabled: ['seo'], missing: [] });
  });
});

describe("pluginEntryFile: a plugin's server part", () => {
  it("prefers the SDK's source for a folder of the project, the built file for a package", () => {
    const exportsMap = { './strapi-server': { source: './server/src/index.ts', require: './dist/server/index.js' } };
    const dir = project({
      'server/src/index.ts': 'export default {};',
      'dist/server/index.js': 'module.exports = {};',
      'strapi-server.js': "module.exports = require('./dist/server');",
    });
    const packageInfo = pluginPackage('todo', { exports: exportsMap });
    expect(pluginEntryFile({ dir, kind: 'local', packageInfo })).toBe(join(dir, 'server/src/index.ts'));
    expect(pluginEntryFile({ dir, kind: 'package', packageInfo })).toBe(join(dir, 'dist/server/index.js'));
  });

  it('falls back to strapi-server.{ts,js}, then server/src/index; none is a plugin without a server part', () => {
    const classic = project({ 'strapi-server.js': 'module.exports = {};', 'server/src/index.ts': '' });
    expect(pluginEntryFile({ dir: classic, kind: 'local', packageInfo: null })).toBe(join(classic, 'strapi-server.js'));
    const sdk = project({ 'server/src/index.js': '' });
    expect(pluginEntryFile({ dir: sdk, kind: 'local', packageInfo: null })).toBe(join(sdk, 'server/src/index.js'));
    const adminOnly = project({ 'admin/src/index.js': '' });
    expect(pluginEntryFile({ dir: adminOnly, kind: 'package', packageInfo: null })).toBeNull();
  });
});
