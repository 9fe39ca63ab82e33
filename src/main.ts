import { readFileSync } from 'node:fs';
import { ApplicationError, ProjectError } from './core/errors.js';
import { parseCliArgs, USAGE, UsageError } from './cli/cli-args.js';
import { startCommand, type ServerHooks } from './cli/start-command.js';
import { TransferError } from './transfer/transfer-error.js';

const print = (line: string) => process.stdout.write(`${line}\n`);

/** Cairn's version from its package.json (one folder up from src/main.ts, dist/main.js and the dist/cairn.cjs bundle alike). */
function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  return String(manifest.version);
}

/** What the caller of `main` may be told (bin/cairn.js saves the bundle's code cache then, load-bundle.ts). */
export type MainHooks = ServerHooks;

/**
 * The `cairn` command line. Returns the exit code; a long-running `start` resolves once the
 * server listens. Bad input exits 1 with a one-line reason on stderr. Commands other than
 * `start` are loaded when run, so a server never runs their modules' code.
 */
export async function main(argv: readonly string[], hooks: MainHooks = {}): Promise<number | undefined> {
  try {
    const args = parseCliArgs(argv);
    if (args.version || args.command === 'version') {
      print(version());
      return 0;
    }
    if (args.help || args.command === undefined || args.command === 'help') {
      print(USAGE);
      return args.command === undefined && !args.help ? 1 : 0;
    }
    switch (args.command) {
      case 'start':
        await startCommand(args, hooks);
        return undefined;
      case 'develop':
        await (await import('./cli/develop-command.js')).developCommand(args, hooks);
        return undefined;
      case 'api-token:create':
        await (await import('./cli/api-token-commands.js')).createTokenCommand(args, print);
        return 0;
      case 'api-token:list':
        await (await import('./cli/api-token-commands.js')).listTokensCommand(args, print);
        return 0;
      case 'api-token:revoke':
        await (await import('./cli/api-token-commands.js')).revokeTokenCommand(args, print);
        return 0;
      case 'admin:create-user':
      case 'admin:create':
        await (await import('./cli/admin-user-commands.js')).createAdminUserCommand(args, print);
        return 0;
      case 'admin:reset-user-password':
      case 'admin:reset-password':
        await (await import('./cli/admin-user-commands.js')).resetAdminPasswordCommand(args, print);
        return 0;
      case 'content-types:list':
        await (await import('./cli/list-commands.js')).listContentTypesCommand(args, print);
        return 0;
      case 'policies:list':
        await (await import('./cli/list-commands.js')).listPoliciesCommand(args, print);
        return 0;
      case 'middlewares:list':
        await (await import('./cli/list-commands.js')).listMiddlewaresCommand(args, print);
        return 0;
      case 'ts:generate-types':
        await (await import('./cli/generate-types-command.js')).generateTypesCommand(args, print);
        return 0;
      case 'build':
        await (await import('./cli/build-command.js')).buildCommand(args, print);
        return 0;
      case 'routes:list':
        await (await import('./cli/list-commands.js')).listRoutesCommand(args, print);
        return 0;
      case 'openapi':
        await (await import('./cli/openapi-command.js')).openApiCommand(args, print);
        return 0;
      case 'export':
        await (await import('./cli/export-command.js')).exportCommand(args, print, version());
        return 0;
      case 'import':
        await (await import('./cli/import-command.js')).importCommand(args, print);
        return 0;
      case 'webhooks:log':
        await (await import('./cli/webhooks-commands.js')).webhooksLogCommand(args, print);
        return 0;
      default:
        throw new UsageError(`unknown command "${args.command}" (run \`cairn help\`)`);
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ApplicationError ||
      error instanceof ProjectError ||
      error instanceof TransferError
    ) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
