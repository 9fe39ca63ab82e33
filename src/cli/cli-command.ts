import { parseArgs } from 'node:util';

/** Every option a command may take (`-d` is `--dir`, `-h` is `--help`, `-v` is `--version`). */
export const CLI_OPTIONS = {
  dir: { type: 'string', short: 'd' },
  name: { type: 'string' },
  type: { type: 'string' },
  permission: { type: 'string', multiple: true },
  lifespan: { type: 'string' },
  description: { type: 'string' },
  json: { type: 'boolean' },
  limit: { type: 'string' },
  out: { type: 'string', short: 'o' },
  output: { type: 'string' },
  email: { type: 'string', short: 'e' },
  password: { type: 'string', short: 'p' },
  firstname: { type: 'string', short: 'f' },
  lastname: { type: 'string', short: 'l' },
  file: { type: 'string' },
  key: { type: 'string', short: 'k' },
  'no-encrypt': { type: 'boolean' },
  'no-compress': { type: 'boolean' },
  only: { type: 'string' },
  exclude: { type: 'string' },
  force: { type: 'boolean' },
  'log-format': { type: 'string' },
  'out-dir': { type: 'string' },
  silent: { type: 'boolean', short: 's' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/**
 * The command `argv` names, read as parseCliArgs reads it (its first positional argument, options
 * and their values skipped), without judging the rest: bin/cairn.js asks it before the bundle
 * loads, to prepare a server's start and to key the code cache (load-bundle.ts).
 */
export function commandOf(argv: readonly string[]): string | undefined {
  try {
    return parseArgs({ args: [...argv], options: CLI_OPTIONS, allowPositionals: true, strict: false }).positionals[0];
  } catch {
    return undefined;
  }
}
