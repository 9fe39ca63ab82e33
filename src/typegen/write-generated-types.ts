import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildStrapiModels } from '../admin/content-manager/cm-strapi-models.js';
import type { Project } from '../project/load-project.js';
import { generateTypes } from './generated-types.js';

/**
 * Writes `types/generated/contentTypes.d.ts` and `components.d.ts` for the project's models, as
 * `strapi ts:generate-types` does, when the project is a TypeScript one (a `tsconfig.json` at its
 * root, Strapi's test) or `always` is set: what `develop` calls after loading a changed model, and
 * `cairn ts:generate-types`. `outDir`, relative to the project, replaces `types`. A file whose text
 * is already the generated one is left untouched, so watchers see no change. Returns the files'
 * paths (none when nothing was to be written).
 */
export function writeGeneratedTypes(
  project: Pick<Project, 'dir' | 'schema' | 'modelFiles'>,
  options: { readonly outDir?: string; readonly always?: boolean } = {},
): string[] {
  if (!options.always && !existsSync(join(project.dir, 'tsconfig.json'))) return [];
  const folder = join(project.dir, options.outDir ?? 'types', 'generated');
  mkdirSync(folder, { recursive: true });
  const files = generateTypes(buildStrapiModels(project.schema, project.modelFiles).values());
  return Object.entries(files).map(([name, text]) => {
    const file = join(folder, name);
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
    return file;
  });
}
