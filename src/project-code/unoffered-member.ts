import { relative, sep } from 'node:path';
import { NotImplementedError } from '../core/errors.js';

/**
 * The error for a member of Strapi's API that Cairn does not offer: its message names the member
 * and the project file (and line) that used it, read from the stack, e.g.
 * "Cairn does not offer strapi.cron.add (used at src/index.js:12:5)". A 501 if it reaches a
 * client; during `register` or `bootstrap` it stops the start with that message.
 */
export function unofferedMember(
  member: string,
  projectDir: string,
  packageRoots: readonly string[] = [],
): NotImplementedError {
  const site = projectFrame(new Error().stack ?? '', projectDir, packageRoots);
  return new NotImplementedError(
    `Cairn does not offer ${member}${site ? ` (used at ${site})` : ''}; see "Your project's code" in Cairn's README`,
  );
}

/**
 * The first frame of `stack` in the project's own files (under `projectDir`, outside its
 * node_modules, or in one of `packageRoots`: the plugin packages it runs), as `path:line:column`
 * from the project folder; null when there is none.
 *
 *   "    at find (/srv/blog/src/api/x/controllers/x.js:12:5)" → "src/api/x/controllers/x.js:12:5"
 */
export function projectFrame(stack: string, projectDir: string, packageRoots: readonly string[] = []): string | null {
  const root = projectDir.endsWith(sep) ? projectDir : projectDir + sep;
  const packages = packageRoots.map((dir) => (dir.endsWith(sep) ? dir : dir + sep));
  for (const line of stack.split('\n').slice(1)) {
    const match = /\(?((?:\/|[A-Za-z]:\\)[^()]+?:\d+:\d+)\)?\s*$/.exec(line.trim());
    const path = match?.[1];
    if (!path) continue;
    const own = path.startsWith(root) && !path.startsWith(`${root}node_modules${sep}`);
    if (own || packages.some((dir) => path.startsWith(dir))) return relative(projectDir, path);
  }
  return null;
}
