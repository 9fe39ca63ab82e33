import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStrapiModels, type StrapiModel } from '../src/admin/content-manager/cm-strapi-models.js';
import { loadProject } from '../src/project/load-project.js';
import { generateTypes, type GeneratedTypes } from '../src/typegen/generated-types.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');

/**
 * What `strapi ts:generate-types` (Strapi 5.54, the reference install) wrote for a project's
 * schemas, beside the project it was run on: the blog (examples/blog), and the city portal, whose
 * model uses every attribute kind (enumerations, dynamic zones, uids, min/max, defaults, i18n
 * pluginOptions, private and unique fields…).
 */
const PROJECTS = [
  { name: 'the blog', dir: EXAMPLE_PROJECT, strapiOutput: join(FIXTURES, 'strapi-5.54-blog/generated-types') },
  {
    name: 'the city portal',
    dir: join(FIXTURES, 'projects/city-portal'),
    strapiOutput: join(FIXTURES, 'strapi-5.54-city-portal/generated-types'),
  },
];

for (const { name, dir: source, strapiOutput } of PROJECTS) {
  describe(`generated types equal Strapi's for ${name}`, () => {
    let dir: string;
    let files: GeneratedTypes;
    beforeAll(async () => {
      // A copy: loading a project may write the secrets its .env lacks.
      dir = mkdtempSync(join(tmpdir(), 'cairn-typegen-'));
      cpSync(source, dir, { recursive: true });
      const project = await loadProject(dir, {});
      files = generateTypes(buildStrapiModels(project.schema, project.modelFiles).values());
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    for (const file of ['contentTypes.d.ts', 'components.d.ts'] as const) {
      it(`${file}${file === 'contentTypes.d.ts' ? ", Strapi's built-in admin:: and plugin:: types included" : ''}`, () => {
        expect(files[file]).toBe(readFileSync(join(strapiOutput, file), 'utf8'));
      });
    }
  });
}

/*
 * A component using the rarer options (custom fields, uid options, morph relations, media without
 * allowed types, negative and huge numbers, string bounds, JSON defaults, escapes and non-ASCII
 * text, long lines), given as Strapi registers it to Strapi 5.54's generator
 * (`generateComponentsDefinitions` of @strapi/typescript-utils) and to Cairn's.
 */
describe("generated types equal Strapi's for rarer attribute options", () => {
  const edges = join(FIXTURES, 'strapi-5.54-typegen-edges');
  it('components.d.ts', () => {
    const model = JSON.parse(readFileSync(join(edges, 'component.json'), 'utf8')) as StrapiModel;
    expect(generateTypes([model])['components.d.ts']).toBe(readFileSync(join(edges, 'components.d.ts'), 'utf8'));
  });
});
