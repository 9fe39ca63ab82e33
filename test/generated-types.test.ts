import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStrapiModels } from '../src/admin/content-manager/cm-strapi-models.js';
import { loadProject, type Project } from '../src/project/load-project.js';
import { generateTypes, type GeneratedTypes } from '../src/typegen/generated-types.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/** What `strapi ts:generate-types` (Strapi 5.54) wrote for examples/blog's model (the reference install of the same schemas). */
const STRAPI_OUTPUT = resolve(import.meta.dirname, 'fixtures/strapi-5.54-blog/generated-types');
const strapiFile = (name: keyof GeneratedTypes) => readFileSync(join(STRAPI_OUTPUT, name), 'utf8');

describe("generated types equal Strapi's for the blog", () => {
  let dir: string;
  let project: Project;
  let files: GeneratedTypes;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-typegen-'));
    cpSync(EXAMPLE_PROJECT, dir, { recursive: true });
    project = await loadProject(dir, {});
    files = generateTypes(buildStrapiModels(project.schema, project.modelFiles).values());
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('contentTypes.d.ts, built-in admin:: and plugin:: types included', () => {
    expect(files['contentTypes.d.ts']).toBe(strapiFile('contentTypes.d.ts'));
  });

  it('components.d.ts', () => {
    expect(files['components.d.ts']).toBe(strapiFile('components.d.ts'));
  });
});
