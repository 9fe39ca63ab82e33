import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledConfigFile, compiledProjectRoot } from './compiled-config-dir.js';
import { createEnvHelper } from './env-helper.js';
import { loadConfigFiles } from './load-config-files.js';

const dirs: string[] = [];
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-compiled-config-'));
  dirs.push(dir);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Strapi's TypeScript template's SQLite filename: two folders up from dist/config. */
const DATABASE_TS = `import path from 'path';
import { FILE } from './database-file';
export default ({ env }) => ({
  connection: {
    client: 'sqlite',
    connection: { filename: path.join(__dirname, '..', '..', env('DATABASE_FILENAME', FILE)) },
    useNullAsDefault: true,
  },
  compiledAs: __filename,
});`;

describe('the folder Strapi runs a TypeScript project config from', () => {
  it.each([
    ['{ "compilerOptions": { "outDir": "dist", "rootDir": "." } }', 'dist'],
    ['{\n  // Strapi compiles here\n  "compilerOptions": { /* out */ "outDir": "build/server", },\n}', 'build/server'],
    ['{ "compilerOptions": { "paths": { "@/*": ["src/*"] }, "outDir": "./out" } }', 'out'],
  ])('%s → <project>/%s', (tsconfig, outDir) => {
    const dir = project({ 'tsconfig.json': tsconfig });
    expect(compiledProjectRoot(dir)).toBe(join(dir, outDir));
  });

  it.each([
    ['no tsconfig.json', {}],
    ['no outDir', { 'tsconfig.json': '{ "extends": "@strapi/typescript-utils/tsconfigs/server" }' }],
    ['a tsconfig.json that does not parse', { 'tsconfig.json': '{ "compilerOptions": ' }],
  ])('%s → none: config runs where it is', (_name, files) => {
    expect(compiledProjectRoot(project(files))).toBeNull();
  });

  it('maps each config file to its compiled copy; JSON is read as it is', () => {
    expect(compiledConfigFile('/p', '/p/dist', '/p/config/database.ts')).toBe('/p/dist/config/database.js');
    expect(compiledConfigFile('/p', '/p/dist', '/p/config/env/production/server.js')).toBe(
      '/p/dist/config/env/production/server.js',
    );
    expect(compiledConfigFile('/p', '/p/dist', '/p/config/plugins.json')).toBeNull();
    expect(compiledConfigFile('/p', null, '/p/config/database.ts')).toBeNull();
  });

  it("gives config/database.ts the compiled copy's __dirname, so the template's SQLite file is in the project", async () => {
    const dir = project({
      'tsconfig.json': '{ "compilerOptions": { "outDir": "dist" } }',
      'config/database.ts': DATABASE_TS,
      'config/database-file.ts': "export const FILE = '.tmp/data.db';",
    });
    const config = await loadConfigFiles(dir, createEnvHelper({}), undefined);
    expect(config.database).toMatchObject({
      connection: { connection: { filename: join(dir, '.tmp/data.db') } },
      compiledAs: join(dir, 'dist/config/database.js'),
    });
  });

  it('leaves a JavaScript project alone: config/database.js sees its own folder', async () => {
    const dir = project({
      'config/database.js':
        "const path = require('path');\nmodule.exports = () => ({ filename: path.join(__dirname, '..', '.tmp/data.db') });",
    });
    const config = await loadConfigFiles(dir, createEnvHelper({}), undefined);
    expect(config.database).toEqual({ filename: join(dir, '.tmp/data.db') });
  });
});
