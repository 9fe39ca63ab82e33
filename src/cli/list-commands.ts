import { authRouteTable } from '../api/auth-routes.js';
import { contentRouteTable } from '../api/content-api.js';
import { rolesRouteTable } from '../api/roles-routes.js';
import { uploadRouteTable } from '../api/upload-routes.js';
import { i18nRouteTable } from '../api/i18n-routes.js';
import { usersRouteTable } from '../api/users-routes.js';
import { loadProject } from '../project/load-project.js';
import { pluginRouteLines } from '../project-code/plugin-runtime.js';
import type { CliArgs } from './cli-args.js';
import { nameTable } from './name-table.js';
import { contentTypeNames, middlewareNames, policyNames } from './strapi-registries.js';

type Output = (line: string) => void;

/** `content-types:list`: every content type uid, Strapi's built-in ones included, in Strapi's table and order. */
export async function listContentTypesCommand(args: CliArgs, out: Output): Promise<void> {
  out(nameTable(contentTypeNames(await loadProject(args.dir, process.env))));
}

/** `policies:list`: the policies Strapi registers for the project (its own and Strapi's), in Strapi's table. */
export async function listPoliciesCommand(args: CliArgs, out: Output): Promise<void> {
  out(nameTable(policyNames(await loadProject(args.dir, process.env))));
}

/** `middlewares:list`: the middlewares Strapi registers for the project (its own and Strapi's), in Strapi's table. */
export async function listMiddlewaresCommand(args: CliArgs, out: Output): Promise<void> {
  out(nameTable(middlewareNames(await loadProject(args.dir, process.env))));
}

/**
 * `routes:list`: method, path and permission action of every route. A project's route files
 * replace the core routes of their API's types; their routes are marked `(project code)`, or
 * `(public)` with `auth: false`. The plugins' routes follow (`(plugin todo)`), and the routes of
 * users-permissions, upload or i18n as the project's extensions leave them (`(extension)` where
 * they change one).
 */
export async function listRoutesCommand(args: CliArgs, out: Output): Promise<void> {
  const project = await loadProject(args.dir, process.env);
  out('GET     /_health');
  const prefix = project.config.api.prefix;
  const code = project.code;
  const replaced = code?.typesWithRouteFiles ?? new Set<string>();
  for (const route of code?.routes ?? []) {
    const action = route.controller && route.action ? `${route.controller}.${route.action}` : 'a function';
    const marks = [route.core ? null : 'project code', route.config.auth === false ? 'public' : null].filter(Boolean);
    out(`${route.method.padEnd(7)} ${route.path}  ${action}${marks.length > 0 ? `  (${marks.join(', ')})` : ''}`);
  }
  const plugins = code
    ? pluginRouteLines(code.plugins.plugins, {
        cairn: code.cairnPlugins,
        registry: code.registry,
        schema: project.schema,
        apiPrefix: prefix,
        strapi: code.handle.strapi,
      })
    : { lines: [], extended: new Set<string>() };
  for (const route of [
    ...contentRouteTable(project.schema, prefix).filter((route) => !replaced.has(route.type.uid)),
    ...authRouteTable(prefix),
    ...usersRouteTable(prefix),
    ...rolesRouteTable(prefix),
    ...uploadRouteTable(prefix),
    ...i18nRouteTable(prefix),
  ]) {
    // The routes of a plugin the project extends are listed as the extension leaves them, below.
    if ([...plugins.extended].some((name) => route.action.startsWith(`plugin::${name}.`))) continue;
    out(`${route.method.padEnd(7)} ${route.path}  ${route.action}`);
  }
  for (const line of plugins.lines) out(line);
}
