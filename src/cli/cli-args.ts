import { parseArgs } from 'node:util';

/** Options every command understands, plus the api-token ones. */
export interface CliArgs {
  readonly command: string | undefined;
  readonly dir: string;
  readonly name?: string;
  readonly type?: string;
  readonly permissions: readonly string[];
  readonly lifespan?: string;
  readonly description?: string;
  readonly json: boolean;
  /** `webhooks:log --limit N`. */
  readonly limit?: string;
  readonly help: boolean;
}

/** Thrown for bad command-line input; main prints the message alone and exits 1. */
export class UsageError extends Error {}

/** `cairn <command> [--dir D] [--name N] …` → CliArgs. Unknown options are a UsageError. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        dir: { type: 'string', short: 'd' },
        name: { type: 'string' },
        type: { type: 'string' },
        permission: { type: 'string', multiple: true },
        lifespan: { type: 'string' },
        description: { type: 'string' },
        json: { type: 'boolean' },
        limit: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
    return {
      command: positionals[0],
      dir: values.dir ?? process.cwd(),
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(values.type !== undefined ? { type: values.type } : {}),
      permissions: values.permission ?? [],
      ...(values.lifespan !== undefined ? { lifespan: values.lifespan } : {}),
      ...(values.description !== undefined ? { description: values.description } : {}),
      json: values.json ?? false,
      ...(values.limit !== undefined ? { limit: values.limit } : {}),
      help: values.help ?? false,
    };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'invalid arguments');
  }
}

export const USAGE = `Usage: cairn <command> [--dir <project folder>]

Commands:
  start                      sync the database schema, then serve the project
  develop                    start, and restart when a schema or config file changes
  api-token:create --name N --type full-access|read-only|custom [--permission ACTION]...
                   [--lifespan 7|30|90] [--description D]
                             create a content-API token; prints the access key alone
  api-token:list [--json]    list content-API tokens
  api-token:revoke --name N  delete a token
  content-types:list         list the project's content types
  routes:list                list the HTTP routes and their permission actions
  webhooks:log [--limit N] [--json]
                             the newest webhook deliveries: status, attempts, last error

--dir defaults to the current directory.`;
