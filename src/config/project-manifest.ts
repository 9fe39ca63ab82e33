import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ProjectError } from '../core/errors.js';

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};

/** The project's package.json (`{}` when it has none); invalid JSON stops the start with the file named. */
export function readProjectManifest(dir: string): Readonly<Obj> {
  const file = resolve(dir, 'package.json');
  if (!existsSync(file)) return {};
  try {
    return obj(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    throw new ProjectError(`${file} is not valid JSON`);
  }
}

/** Whether the manifest lists `name` among its dependencies or devDependencies (a Strapi plugin is installed). */
export function dependsOn(manifest: Readonly<Obj>, name: string): boolean {
  return name in obj(manifest.dependencies) || name in obj(manifest.devDependencies);
}
