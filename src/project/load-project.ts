import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { databaseFilenameWarning } from '../config/describe-database.js';
import { createEnvHelper, type EnvVars } from '../config/env-helper.js';
import { loadConfigFiles } from '../config/load-config-files.js';
import { normalizeConfig } from '../config/normalize-config.js';
import { loadProjectEnv } from '../config/project-env.js';
import { ProjectError } from '../core/errors.js';
import { compileCacheFolder } from '../core/private-folder.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { buildSchema } from '../schema/build-schema.js';
import type { Schema } from '../schema/types.js';
import { loadProjectCode, type ProjectCode } from '../project-code/project-code.js';
import type { LoadedPlugins } from '../project-code/load-plugins.js';
import { customFieldTypes, type CustomFieldType, type CustomFieldTypes } from '../schema/custom-fields.js';
import type { RawModelFile } from '../schema/raw-types.js';
import { applyPluginExtensions } from './plugin-extensions.js';
import { listIgnoredCodeFiles, readModelFiles, readPluginExtensions } from './read-model-files.js';

/** A Strapi 5 project folder, read and checked: everything the server needs to start. */
export interface Project {
  readonly dir: string;
  readonly env: EnvVars;
  readonly config: Config;
  readonly schema: Schema;
  /** The project's content-type and component files as written (the admin panel echoes them). */
  readonly modelFiles: ReturnType<typeof readModelFiles>;
  /** Custom code files Cairn does not execute (logged once at start). */
  readonly ignoredFiles: readonly string[];
  /** The project's server code, loaded (not yet run: see project-code/start-project-code.ts); null when it has none. */
  readonly code: ProjectCode | null;
  /** Secrets generated into `.env` by this load. */
  readonly generatedSecrets: readonly string[];
  readonly warnings: readonly string[];
}

/**
 * Loads a project folder: `.env` (generating missing secrets), `config/*`, the content model
 * (with the project's `src/extensions/` schemas laid over Strapi's plugin types).
 * `processEnv` is the real environment; it wins over `.env`. Throws ProjectError with a message
 * naming the file at fault.
 */
export async function loadProject(dir: string, processEnv: EnvVars): Promise<Project> {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new ProjectError(`${root} is not a directory; pass the Strapi project folder with --dir`);
  }
  if (!existsSync(resolve(root, 'src')) && !existsSync(resolve(root, 'config'))) {
    throw new ProjectError(`${root} does not look like a Strapi project (no src/ or config/ folder)`);
  }
  const projectEnv = loadProjectEnv(root, processEnv);
  const env = createEnvHelper(projectEnv.vars);
  const transpileCache = compileCacheFolder(processEnv, 'transpiled');
  const rawConfig = await loadConfigFiles(root, env, projectEnv.vars.NODE_ENV, { transpileCache });
  const config = normalizeConfig(rawConfig, root, {
    HOST: processEnv.HOST,
    PORT: processEnv.PORT,
    JWT_SECRET: projectEnv.vars.JWT_SECRET,
    NODE_ENV: projectEnv.vars.NODE_ENV,
    CAIRN_REDIS_URL: projectEnv.vars.CAIRN_REDIS_URL,
    CAIRN_REDIS_PREFIX: projectEnv.vars.CAIRN_REDIS_PREFIX,
  });
  const files = readModelFiles(root);
  const modelWarnings: string[] = [];
  let builtinWarnings: string[] = [];
  // The model: Cairn's built-in types (as the project's extensions change them), the plugins'
  // content types and the project's own. Built before register (a custom field nothing declares yet
  // stored as JSON), then again after it when register declared custom fields or some were pending.
  let provisional: {
    readonly schema: Schema;
    readonly plugins: LoadedPlugins | null;
    readonly pending: boolean;
  } | null = null;
  const buildModel = (plugins: LoadedPlugins | null, registered: CustomFieldTypes | null): Schema => {
    if (registered?.size === 0 && provisional?.plugins === plugins && !provisional.pending) return provisional.schema;
    const changed = new Map((plugins?.builtinTypes ?? []).map((type) => [type.uid, type]));
    const builtins = applyPluginExtensions(
      [...BUILTIN_CONTENT_TYPES.map((type) => changed.get(type.uid) ?? type), ...(plugins?.contentTypes ?? [])],
      readPluginExtensions(root),
    );
    builtinWarnings = builtins.warnings;
    const types = [...builtins.contentTypes, ...files.contentTypes];
    const known = customFieldTypes(config.customFields);
    const pending =
      registered === null
        ? pendingCustomFields([...types, ...files.components]).filter(([uid]) => !known.has(uid))
        : [];
    const customFields = new Map([...pending, ...config.customFields, ...(registered ?? [])]);
    modelWarnings.length = 0;
    const schema = buildSchema(types, files.components, {
      privateAttributes: config.api.privateAttributes,
      customFields,
      onWarning: (warning) => modelWarnings.push(warning),
    });
    if (registered === null) provisional = { schema, plugins, pending: pending.length > 0 };
    return schema;
  };
  const {
    code,
    schema: model,
    warnings: pluginWarnings,
  } = await loadProjectCode({
    dir: root,
    apiPrefix: config.api.prefix,
    rawConfig,
    env,
    nodeEnv: projectEnv.vars.NODE_ENV,
    transpileCache,
    buildModel,
    modelFiles: files,
  });
  const schema = code
    ? {
        ...model,
        ...(code.actions.length > 0 && { routeActions: code.actions }),
        ...(code.removedActions.length > 0 && { removedActions: code.removedActions }),
      }
    : model;
  return {
    dir: root,
    env: projectEnv.vars,
    config,
    schema,
    modelFiles: files,
    ignoredFiles: listIgnoredCodeFiles(
      root,
      code?.plugins.plugins.flatMap((plugin) => (plugin.extension ? [plugin.name] : [])) ?? [],
    ),
    code,
    generatedSecrets: projectEnv.generated,
    warnings: [
      projectEnv.warning,
      databaseFilenameWarning(config.database, projectEnv.vars.DATABASE_FILENAME),
      ...pluginWarnings,
      ...builtinWarnings,
      ...modelWarnings,
    ].filter((w): w is string => w !== undefined),
  };
}

/** Every custom field the models use, stored as JSON until the plugins' `register` declared their types. */
function pendingCustomFields(models: readonly { readonly definition: RawModelFile }[]): [string, CustomFieldType][] {
  return models.flatMap((model) =>
    Object.values(model.definition.attributes ?? {}).flatMap((attribute) =>
      attribute.type === 'customField' && typeof attribute.customField === 'string'
        ? [[attribute.customField, 'json'] as [string, CustomFieldType]]
        : [],
    ),
  );
}
