import { readFileSync } from 'node:fs';
import { ApplicationError, ProjectError } from './core/errors.js';
import { createAdminUserCommand, resetAdminPasswordCommand } from './cli/admin-user-commands.js';
import { createTokenCommand, listTokensCommand, revokeTokenCommand } from './cli/api-token-commands.js';
import { parseCliArgs, USAGE, UsageError } from './cli/cli-args.js';
import { exportCommand } from './cli/export-command.js';
import { importCommand } from './cli/import-command.js';
import { listContentTypesCommand, listRoutesCommand } from './cli/list-commands.js';
import { openApiCommand } from './cli/openapi-command.js';
import { startCommand } from './cli/start-command.js';
import { webhooksLogCommand } from './cli/webhooks-commands.js';
import { TransferError } from './transfer/transfer-error.js';

const print = (line: string) => process.stdout.write(`${line}\n`);

/** Cairn's version from its package.json (one folder up from src/main.ts, dist/main.js and the dist/cairn.mjs bundle alike). */
function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  return String(manifest.version);
}

/**
 * The `cairn` command line. Returns the exit code; a long-running `start` resolves once the
 * server listens. Bad input exits 1 with a one-line reason on stderr.
 */
export async function main(argv: readonly string[]): Promise<number | undefined> {
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
        await startCommand(args, { develop: false });
        return undefined;
      case 'develop':
        await startCommand(args, { develop: true });
        return undefined;
      case 'api-token:create':
        await createTokenCommand(args, print);
        return 0;
      case 'api-token:list':
        await listTokensCommand(args, print);
        return 0;
      case 'api-token:revoke':
        await revokeTokenCommand(args, print);
        return 0;
      case 'admin:create-user':
      case 'admin:create':
        await createAdminUserCommand(args, print);
        return 0;
      case 'admin:reset-user-password':
      case 'admin:reset-password':
        await resetAdminPasswordCommand(args, print);
        return 0;
      case 'content-types:list':
        await listContentTypesCommand(args, print);
        return 0;
      case 'routes:list':
        await listRoutesCommand(args, print);
        return 0;
      case 'openapi':
        await openApiCommand(args, print);
        return 0;
      case 'export':
        await exportCommand(args, print, version());
        return 0;
      case 'import':
        await importCommand(args, print);
        return 0;
      case 'webhooks:log':
        await webhooksLogCommand(args, print);
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
