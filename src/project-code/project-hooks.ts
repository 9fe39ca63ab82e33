import type { Schema } from '../schema/types.js';
import { createLifecycles, type Lifecycles } from './lifecycles.js';
import { createMiddlewareList, type MiddlewareList } from './project-documents.js';
import type { CodeFiles } from './load-code-files.js';
import type { LoadedPlugin } from './load-plugins.js';

/**
 * Where a project's code hooks into Cairn's own services, made before they are (the document
 * context and service take them) and filled once its code runs: its lifecycles (files, and
 * `strapi.db.lifecycles.subscribe`) and its Document Service middlewares (`strapi.documents.use`).
 */
export interface ProjectHooks {
  readonly lifecycles: Lifecycles;
  readonly documentMiddlewares: MiddlewareList;
}

/** The hooks of a project with code: its (and its plugins') lifecycle files registered, no middleware yet. */
export function createProjectHooks(files: CodeFiles, schema: Schema, plugins: readonly LoadedPlugin[]): ProjectHooks {
  return { lifecycles: createLifecycles(files, schema, plugins), documentMiddlewares: createMiddlewareList() };
}
