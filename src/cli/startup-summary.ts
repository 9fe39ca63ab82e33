import { join } from 'node:path';
import { findAdminBuild } from '../http/admin-panel-files.js';
import type { Project } from '../project/load-project.js';

/**
 * What a start tells about the project beside its database: where the admin panel comes from (or
 * where Cairn looked for it), which plugins answer, and what of the project's own code Cairn does
 * not run. One line each, read by a person at start.
 */
export function startupSummary(project: Project): string[] {
  const { config } = project;
  return [adminPanelLine(project), pluginsLine(config), projectCodeLine(project)];
}

function adminPanelLine({ dir, config }: Project): string {
  if (!config.admin.serveAdminPanel) return 'admin panel: not served (config/admin serveAdminPanel: false)';
  const build = findAdminBuild(dir);
  if (build !== null) return `admin panel: ${config.admin.url} from ${build}`;
  return (
    `admin panel: no build found (looked for ${join(dir, 'build', 'index.html')} and ${join(dir, 'dist', 'build', 'index.html')}); ` +
    `${config.admin.url} answers a page saying how to build it (npx strapi build in the project)`
  );
}

function pluginsLine(config: Project['config']): string {
  const email =
    config.email.kind === 'log' ? 'log only' : config.email.kind === 'smtp' ? 'nodemailer' : config.email.provider;
  const plugins = [
    'users-permissions',
    `upload (${config.upload.provider})`,
    `i18n (${[...config.i18n.locales, `default ${config.i18n.defaultLocale}`].join(', ')})`,
    `email (${email})`,
    ...(config.graphql !== null ? [`graphql at ${config.graphql.endpoint}`] : []),
    ...(config.documentation.enabled ? [`documentation at ${config.documentation.path}`] : []),
  ];
  return `plugins: ${plugins.join(', ')}`;
}

function projectCodeLine({ ignoredFiles, code }: Project): string {
  const plugins = code?.plugins.plugins.filter((plugin) => plugin.kind !== 'cairn').map((plugin) => plugin.name) ?? [];
  const extended = code?.plugins.plugins.filter((plugin) => plugin.extension).map((plugin) => plugin.name) ?? [];
  const runs = code
    ? 'runs its controllers, services, routes, policies, middlewares and src/index' +
      (plugins.length > 0 ? `, plugins (${plugins.join(', ')})` : '') +
      (extended.length > 0 ? `, extensions (${extended.join(', ')})` : '')
    : "none to run beyond Strapi's generated files";
  if (ignoredFiles.length === 0) return `project code: ${runs}`;
  return `project code: ${runs}; not run yet (${ignoredFiles.length}): ${ignoredFiles.join(', ')}`;
}
