import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectError } from '../src/core/errors.js';
import { loadProject } from '../src/project/load-project.js';
import { CUSTOM_FIELDS_FILES, SWATCH_SCHEMA, swatchSchemaWith } from './support/custom-fields-project.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

const dirs: string[] = [];
function project(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-custom-fields-'));
  dirs.push(dir);
  cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
  for (const [file, content] of Object.entries({ ...CUSTOM_FIELDS_FILES, ...files })) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function loadError(files: Record<string, string>): Promise<string> {
  const error = await loadProject(project(files), {}).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProjectError);
  return (error as Error).message;
}

describe('custom fields in a project', () => {
  it('become attributes of the type their plugin registers, in content types and components', async () => {
    const { schema } = await loadProject(project(), {});
    const swatch = schema.contentTypes.get('api::swatch.swatch')!;
    const types = Object.fromEntries(
      [...swatch.attributes.values()].filter((a) => !a.system).map((a) => [a.name, a.type]),
    );
    expect(types).toEqual({
      name: 'string',
      color: 'string',
      body: 'richtext',
      notes: 'richtext',
      moods: 'json',
      story: 'text',
      place: 'json',
      icon: 'json',
      code: 'uid',
      stars: 'integer',
      palette: 'component',
    });
    expect(swatch.attributes.get('stars')).toMatchObject({ max: 5, column: 'stars' });
    const palette = schema.components.get('shared.palette')!;
    expect(palette.attributes.get('primary')?.type).toBe('string');
    expect(palette.attributes.get('moods')?.type).toBe('json');
  });

  it('config/custom-fields overrides a known one and may be a function of env', async () => {
    const dir = project({
      'config/custom-fields.js':
        "module.exports = ({ env }) => ({ 'global::stars': { type: env('STARS_TYPE') }, 'plugin::color-picker.color': { type: 'text' } });\n",
    });
    const { schema } = await loadProject(dir, { STARS_TYPE: 'float' });
    const swatch = schema.contentTypes.get('api::swatch.swatch')!;
    expect(swatch.attributes.get('stars')?.type).toBe('float');
    expect(swatch.attributes.get('color')?.type).toBe('text');
  });

  it('an unknown custom field stops the load, naming the file, the attribute and the fix', async () => {
    const message = await loadError({
      [SWATCH_SCHEMA]: swatchSchemaWith({ rank: { type: 'customField', customField: 'plugin::ranker.rank' } }),
    });
    expect(message).toContain(
      `${SWATCH_SCHEMA}: attribute "rank" uses the custom field "plugin::ranker.rank", whose storage type Cairn does not know (no plugin it runs registered it); declare it in config/custom-fields.js as { 'plugin::ranker.rank': { type: '<type>' } }`,
    );
    expect(message).toContain('one of biginteger, boolean, date');
  });

  it('a global custom field the config does not declare is unknown too, in a component as well', async () => {
    const message = await loadError({ 'config/custom-fields.js': 'module.exports = {};\n' });
    expect(message).toContain(`${SWATCH_SCHEMA}: attribute "stars" uses the custom field "global::stars"`);
    const inComponent = await loadError({
      'src/components/shared/palette.json': JSON.stringify({
        collectionName: 'components_shared_palettes',
        attributes: { tint: { type: 'customField', customField: 'global::tint' } },
      }),
    });
    expect(inComponent).toContain(
      'src/components/shared/palette.json: attribute "tint" uses the custom field "global::tint"',
    );
  });

  it('a customField attribute without its uid is reported', async () => {
    const message = await loadError({ [SWATCH_SCHEMA]: swatchSchemaWith({ rank: { type: 'customField' } }) });
    expect(message).toContain(`${SWATCH_SCHEMA}: attribute "rank" has type "customField" without a "customField" uid`);
  });

  it.each([
    ['module.exports = [];', 'config/custom-fields: must export an object'],
    [
      "module.exports = { 'color': { type: 'string' } };",
      'config/custom-fields: "color" is not a custom field uid; use "plugin::<plugin>.<name>" or "global::<name>"',
    ],
    [
      "module.exports = { 'global::stars': 'integer' };",
      `config/custom-fields: "global::stars" must be { type: '<type>' } with one of biginteger`,
    ],
    [
      "module.exports = { 'global::stars': { type: 'component' } };",
      `config/custom-fields: "global::stars" must be { type: '<type>' }`,
    ],
  ])('config/custom-fields %s is refused', async (source, reason) => {
    expect(await loadError({ 'config/custom-fields.js': `${source}\n` })).toContain(reason);
  });
});
