import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { ProjectError } from '../core/errors.js';
import { jsonErrorSite } from '../core/json-error-site.js';
import { isGeneratedBoilerplate } from './generated-boilerplate.js';
import type { RawComponent, RawContentType, RawModelFile } from '../schema/raw-types.js';

const listDirs = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => statSync(join(dir, name)).isDirectory())
        .sort()
    : [];

function readJson(projectDir: string, file: string): RawModelFile {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new Error('the file must contain a JSON object');
    return value as RawModelFile;
  } catch (error) {
    const path = relative(projectDir, file);
    const site = jsonErrorSite(text, error);
    throw new ProjectError(
      `${path}: cannot read this schema: ${(error as Error).message}${site ? ` (at ${path}:${site})` : ''}`,
    );
  }
}

/**
 * Reads `src/api/<api>/content-types/<name>/schema.json` (uid `api::<api>.<name>`) and
 * `src/components/<category>/<name>.json` (uid `<category>.<name>`). File paths in the result are
 * relative to the project, for error messages.
 */
export function readModelFiles(projectDir: string): { contentTypes: RawContentType[]; components: RawComponent[] } {
  const contentTypes: RawContentType[] = [];
  const apiDir = join(projectDir, 'src', 'api');
  for (const api of listDirs(apiDir)) {
    const typesDir = join(apiDir, api, 'content-types');
    for (const name of listDirs(typesDir)) {
      const file = join(typesDir, name, 'schema.json');
      if (!existsSync(file)) continue;
      contentTypes.push({
        uid: `api::${api}.${name}`,
        file: relative(projectDir, file),
        origin: 'api',
        definition: readJson(projectDir, file),
      });
    }
  }
  const components: RawComponent[] = [];
  const componentsDir = join(projectDir, 'src', 'components');
  for (const category of listDirs(componentsDir)) {
    const categoryDir = join(componentsDir, category);
    for (const entry of readdirSync(categoryDir).sort()) {
      if (extname(entry) !== '.json') continue;
      const file = join(categoryDir, entry);
      components.push({
        uid: `${category}.${basename(entry, '.json')}`,
        category,
        file: relative(projectDir, file),
        definition: readJson(projectDir, file),
      });
    }
  }
  return { contentTypes, components };
}

/** A plugin content type's schema as the project rewrites it under `src/extensions/`. */
export interface PluginExtension {
  /** `plugin::users-permissions.user` for `src/extensions/users-permissions/content-types/user/schema.json`. */
  readonly uid: string;
  /** The file, relative to the project. */
  readonly file: string;
  readonly definition: RawModelFile;
}

/**
 * Reads `src/extensions/<plugin>/content-types/<name>/schema.json`: the schemas Strapi lays over
 * its plugins' content types at load (core loaders/plugins applyUserExtension). The content-type
 * builder writes one there when a project adds fields to users-permissions' user, say.
 */
export function readPluginExtensions(projectDir: string): PluginExtension[] {
  const root = join(projectDir, 'src', 'extensions');
  const found: PluginExtension[] = [];
  for (const plugin of listDirs(root)) {
    const typesDir = join(root, plugin, 'content-types');
    for (const name of listDirs(typesDir)) {
      const file = join(typesDir, name, 'schema.json');
      if (!existsSync(file)) continue;
      found.push({
        uid: `plugin::${plugin}.${name}`,
        file: relative(projectDir, file),
        definition: readJson(projectDir, file),
      });
    }
  }
  return found;
}

const CODE_FILE = /\.(js|cjs|mjs|ts)$/;

/**
 * Custom code Strapi would execute and Cairn does not run: the files under `src/extensions` of
 * plugins whose extension does not run (one of a plugin Cairn serves without a plugin object, such
 * as graphql), and the migrations of `database/migrations/` Strapi runs before it starts.
 * Controllers, services, routes, policies, middlewares, lifecycles, `src/index`, plugins and the
 * extensions of `extended` plugins run (project-code/). Files Strapi's generators wrote unchanged
 * are left out: they do what Cairn does (generated-boilerplate.ts).
 */
export function listIgnoredCodeFiles(projectDir: string, extended: readonly string[] = []): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (CODE_FILE.test(entry) && !isGeneratedBoilerplate(readFileSync(path, 'utf8')))
        found.push(relative(projectDir, path));
    }
  };
  const extensions = join(projectDir, 'src', 'extensions');
  for (const plugin of listDirs(extensions)) if (!extended.includes(plugin)) walk(join(extensions, plugin));
  walk(join(projectDir, 'database', 'migrations'));
  return found.sort();
}
