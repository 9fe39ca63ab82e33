import { ProjectError } from '../core/errors.js';
import { projectFrame } from './unoffered-member.js';

/** One of `src/index`'s hooks: `register`, `bootstrap` or `destroy`. */
export type Hook = ((args: { strapi: unknown }) => unknown) | undefined;

/** `src/index`'s three hooks (each optional) and the names of those it has. */
export interface IndexHooks {
  readonly register: Hook;
  readonly bootstrap: Hook;
  readonly destroy: Hook;
  readonly names: readonly string[];
}

/** `src/index`'s exports as Strapi reads them: its three hooks (each optional) and their names. */
export function indexHooks(exported: unknown, path: string): IndexHooks {
  if (exported === undefined || exported === null)
    return { register: undefined, bootstrap: undefined, destroy: undefined, names: [] };
  if (typeof exported !== 'object') throw new ProjectError(`${path}: must export { register, bootstrap, destroy }`);
  const hooks = exported as Record<string, unknown>;
  const hook = (name: string): Hook => {
    const value = hooks[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'function') throw new ProjectError(`${path}: ${name} must be a function`);
    return value as Hook;
  };
  const names = ['register', 'bootstrap', 'destroy'].filter((name) => hooks[name] !== undefined);
  return { register: hook('register'), bootstrap: hook('bootstrap'), destroy: hook('destroy'), names };
}

/**
 * Runs `register`, `bootstrap` or `destroy`; a throw becomes one ProjectError naming the file and
 * the line (in the project, or in one of `packageRoots`: a plugin package's folder).
 */
export async function runHook(
  hook: Hook,
  strapi: unknown,
  path: string | undefined,
  name: string,
  projectDir: string,
  packageRoots: readonly string[] = [],
): Promise<void> {
  if (!hook) return;
  try {
    await hook({ strapi });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The first frame in the project's own files (not Cairn's, e.g. where an unoffered member throws).
    const line = error instanceof Error ? projectFrame(error.stack ?? '', projectDir, packageRoots) : null;
    const where = line && !message.includes(line) ? ` (at ${line})` : '';
    throw new ProjectError(`${path}: ${name}() failed: ${message}${where}`);
  }
}
