import { relative } from 'node:path';
import { loadProject } from '../project/load-project.js';
import { writeGeneratedTypes } from '../typegen/write-generated-types.js';
import type { CliArgs } from './cli-args.js';

type Output = (line: string) => void;

/**
 * `ts:generate-types [--out-dir D] [--silent]`: writes `types/generated/contentTypes.d.ts` and
 * `components.d.ts` (under D instead of `types/`, relative to the project) as
 * `strapi ts:generate-types` does, in a JavaScript project too; one line per file written.
 */
export async function generateTypesCommand(args: CliArgs, out: Output): Promise<void> {
  const project = await loadProject(args.dir, process.env);
  const files = writeGeneratedTypes(project, { outDir: args.outDir ?? args.out ?? 'types', always: true });
  if (args.silent) return;
  for (const file of files) out(`ts:generate-types: wrote ${relative(process.cwd(), file) || file}`);
}
