import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildOpenApiDocument } from '../openapi/build-openapi-document.js';
import { loadProject } from '../project/load-project.js';
import type { CliArgs } from './cli-args.js';

type Output = (line: string) => void;

/**
 * `openapi [--out F]`: the project's OpenAPI 3.1 document (what `/documentation/openapi.json`
 * serves), printed as JSON, or written to F (relative to the current directory, folders created)
 * with one line saying where. Needs no database and no documentation plugin, like
 * `strapi openapi generate`.
 */
export async function openApiCommand(args: CliArgs, out: Output): Promise<void> {
  const project = await loadProject(args.dir, process.env);
  const document = buildOpenApiDocument(project.schema, project.config);
  const text = JSON.stringify(document, null, 2);
  if (args.out === undefined) {
    out(text);
    return;
  }
  const file = resolve(args.out);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${text}\n`);
  out(`openapi: wrote ${file} (${Object.keys(document.paths).length} paths)`);
}
