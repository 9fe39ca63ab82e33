import { findAdminBuild } from '../http/admin-panel-files.js';
import { ProjectError } from '../core/errors.js';
import { loadProject } from '../project/load-project.js';
import type { CliArgs } from './cli-args.js';

type Output = (line: string) => void;

/**
 * `build`: Cairn itself needs no build (a TypeScript project's code is compiled when it starts)
 * and never builds Strapi's admin panel, which `strapi build` writes into the project. So a
 * project script `build` switched to Cairn checks instead: it succeeds when the panel `start` will
 * serve is there (or the panel is off), saying where; else it fails (exit 1) with what to run,
 * so a deploy does not go on to serve `/admin` without it.
 */
export async function buildCommand(args: CliArgs, out: Output): Promise<void> {
  const project = await loadProject(args.dir, process.env);
  const nothing = 'build: Cairn needs no build step (TypeScript is compiled when the server starts)';
  if (!project.config.admin.serveAdminPanel) {
    out(`${nothing}; the admin panel is not served (config/admin serveAdminPanel: false)`);
    return;
  }
  const build = findAdminBuild(project.dir);
  if (build === null) {
    throw new ProjectError(
      `build: the admin panel is built by Strapi, not Cairn, and ${project.dir} has none ` +
        '(no build/index.html nor dist/build/index.html): run `npx strapi build` in the project ' +
        '(with its Strapi dependencies installed), or set serveAdminPanel: false in config/admin',
    );
  }
  out(
    `${nothing}; the admin panel Cairn serves is ${build} (built by \`strapi build\`: run it again after upgrading Strapi)`,
  );
}
