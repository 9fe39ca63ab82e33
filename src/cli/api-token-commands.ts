import {
  API_TOKEN_TYPES,
  createApiToken,
  listApiTokens,
  revokeApiToken,
  type ApiTokenType,
} from '../api-tokens/api-token-store.js';
import { knownActions } from '../access/actions.js';
import { announceCommandChanges, settingsChanged } from '../cluster/announce-command.js';
import { UsageError, type CliArgs } from './cli-args.js';
import { warnLine, withProjectDatabase } from './with-database.js';

type Output = (line: string) => void;

/** `api-token:create`: prints the new access key alone on stdout. */
export async function createTokenCommand(args: CliArgs, out: Output): Promise<void> {
  if (!args.name) throw new UsageError('api-token:create needs --name');
  if (!args.type || !API_TOKEN_TYPES.includes(args.type as ApiTokenType)) {
    throw new UsageError(`api-token:create needs --type ${API_TOKEN_TYPES.join('|')}`);
  }
  const lifespanDays = args.lifespan === undefined || args.lifespan === 'unlimited' ? null : Number(args.lifespan);
  if (lifespanDays !== null && ![7, 30, 90].includes(lifespanDays))
    throw new UsageError('--lifespan must be 7, 30 or 90 (days)');
  if (args.type !== 'custom' && args.permissions.length > 0)
    throw new UsageError('--permission is only for --type custom');
  if (args.type === 'custom' && args.permissions.length === 0)
    throw new UsageError('a custom token needs at least one --permission');
  const key = await withProjectDatabase(args.dir, async (project, db) => {
    const known = knownActions(project.schema);
    const unknown = args.permissions.filter((action) => !known.has(action));
    if (unknown.length > 0)
      throw new UsageError(`unknown permission action(s): ${unknown.join(', ')} (see \`cairn routes:list\`)`);
    const created = await createApiToken(
      db,
      { salt: project.config.admin.apiTokenSalt, encryptionKey: project.config.admin.encryptionKey },
      {
        name: args.name as string,
        type: args.type as ApiTokenType,
        lifespanDays,
        permissions: args.permissions,
        ...(args.description !== undefined ? { description: args.description } : {}),
      },
      new Date(),
    );
    await announceCommandChanges(project.config, [settingsChanged('api-tokens')], warnLine);
    return created;
  });
  out(key);
}

/** `api-token:list`: one line per token (or JSON with --json). */
export async function listTokensCommand(args: CliArgs, out: Output): Promise<void> {
  const tokens = await withProjectDatabase(args.dir, (_project, db) => listApiTokens(db));
  if (args.json) {
    out(JSON.stringify(tokens, null, 2));
    return;
  }
  if (tokens.length === 0) {
    out('No API tokens.');
    return;
  }
  for (const token of tokens) {
    const expires = token.expiresAt ?? 'never';
    const used = token.lastUsedAt ?? 'never';
    const permissions = token.type === 'custom' ? `  permissions: ${token.permissions.join(', ')}` : '';
    out(`${token.name}  ${token.type}  expires: ${expires}  last used: ${used}${permissions}`);
  }
}

/** `api-token:revoke --name N`. */
export async function revokeTokenCommand(args: CliArgs, out: Output): Promise<void> {
  if (!args.name) throw new UsageError('api-token:revoke needs --name');
  const name = args.name;
  const revoked = await withProjectDatabase(args.dir, async (project, db) => {
    const done = await revokeApiToken(db, name);
    if (done) await announceCommandChanges(project.config, [settingsChanged('api-tokens')], warnLine);
    return done;
  });
  if (!revoked) throw new UsageError(`no API token named "${name}"`);
  out(`Revoked API token "${name}".`);
}
