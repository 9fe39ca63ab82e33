import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildStrapiModels } from '../admin/content-manager/cm-strapi-models.js';
import type { Project } from '../project/load-project.js';
import { generateTypes } from './generated-types.js';


/**
 * Writes `types/generated/contentTypes.d.ts` and `components.d.ts` for the project's models, as
 * `strapi ts:generate-types` does (`outDir`, relative to the project, replaces `types`). A file
 * whose text is already the generated one is left untouched, so watchers see no change. Returns the
 * paths of the files written or kept.
 */
export function writeGeneratedTypes(
  project: Pick<Project, 'dir' | 'schema' | 'modelFiles'>,
  outDir = 'types',
): string[] {
  const folder = join(project.dir, outDir, 'generated');
  mkdirSync(folder, { recursive: true });
  const files = generateTypes(buildStrapiModels(project.schema, project.modelFiles).values());
  return Object.entries(files).map(([name, text]) => {
    const file = join(folder, name);
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
    return file;
  });
}

/** Whether the project is a TypeScript one (Strapi's test: a `tsconfig.json` at its root). */
export function isTypeScriptProject(dir: string): boolean {
  return existsSync(join(dir, 'tsconfig.json'));
}
