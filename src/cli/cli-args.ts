import { parseArgs } from 'node:util';
import { CLI_OPTIONS as OPTIONS } from './cli-command.js';

/** Options every command understands, plus those of the api-token and admin account commands. */
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
  /** `openapi --out F` (also `--output`, `-o`, as `strapi openapi generate`). */
  readonly out?: string;
  /** `admin:create-user` / `admin:reset-user-password` account fields. */
  readonly email?: string;
  readonly password?: string;
  readonly firstname?: string;
  readonly lastname?: string;
  /** `export` / `import`: the archive (`--file`, or `-f` as in Strapi's commands). */
  readonly file?: string;
  /** `export --key K` / `import --key K` (`-k`): the archive's encryption key. */
  readonly key?: string;
  /** `export --no-encrypt`, `--no-compress`. */
  readonly noEncrypt: boolean;
  readonly noCompress: boolean;
  /** `export` / `import --only content,files,config`, `--exclude …`. */
  readonly only?: string;
  readonly exclude?: string;
  /** `import --force`: import into a database that holds content (deleting it first). */
  readonly force: boolean;
  /** `start` / `develop --log-format pretty|json` (else CAIRN_LOG_FORMAT, else by terminal). */
  readonly logFormat?: string;
  /** `ts:generate-types --out-dir D` (or `-o D`): the folder, relative to the project, that replaces `types`. */
  readonly outDir?: string;
  /** `ts:generate-types --silent` (`-s`): print nothing. */
  readonly silent: boolean;
  readonly help: boolean;
  /** `--version` / `-v`. */
  readonly version: boolean;
}

/** Thrown for bad command-line input; main prints the message alone and exits 1. */
export class UsageError extends Error {}

const HINT = '(run `cairn help`)';

/**
 * `cairn <command> [--dir D] [--name N] …` → CliArgs. An unknown option, a value-taking option
 * without a value (`--dir` alone, or followed by another option) or a flag given a value
 * (`--json=yes`) is a UsageError with Cairn's own one-line message, e.g.
 * `unknown option "--port" (run \`cairn help\`)`.
 */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const { values, positionals, tokens } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: false,
    tokens: true,
    options: OPTIONS,
  });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (!Object.hasOwn(OPTIONS, token.name)) throw new UsageError(`unknown option "${token.rawName}" ${HINT}`);
    const option = OPTIONS[token.name as keyof typeof OPTIONS];
    if (
      option.type === 'string' &&
      (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))
    ) {
      throw new UsageError(`option ${token.rawName} needs a value ${HINT}`);
    }
    if (option.type === 'boolean' && token.value !== undefined)
      throw new UsageError(`option ${token.rawName} takes no value ${HINT}`);
  }
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}" ${HINT}`);
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const name = text(values.name);
  const type = text(values.type);
  const lifespan = text(values.lifespan);
  const description = text(values.description);
  const limit = text(values.limit);
  const out = text(values.out) ?? text(values.output);
  const logFormat = text(values['log-format']);
  const outDir = text(values['out-dir']);
  // `-f` is `--firstname` for the admin commands and `--file` for export/import, as in Strapi's commands.
  const transfer = positionals[0] === 'export' || positionals[0] === 'import';
  const file = text(values.file) ?? (transfer ? text(values.firstname) : undefined);
  if (transfer) delete values.firstname;
  const transferText = Object.fromEntries(
    (['key', 'only', 'exclude'] as const)
      .map((name) => [name, text(values[name])] as const)
      .filter(([, value]) => value !== undefined),
  ) as Pick<CliArgs, 'key' | 'only' | 'exclude'>;
  const account = Object.fromEntries(
    (['email', 'password', 'firstname', 'lastname'] as const)
      .map((key) => [key, text(values[key])] as const)
      .filter(([, value]) => value !== undefined),
  ) as Pick<CliArgs, 'email' | 'password' | 'firstname' | 'lastname'>;
  return {
    command: positionals[0],
    dir: text(values.dir) ?? process.cwd(),
    ...(name !== undefined ? { name } : {}),
    ...(type !== undefined ? { type } : {}),
    permissions: Array.isArray(values.permission)
      ? values.permission.filter((p): p is string => typeof p === 'string')
      : [],
    ...(lifespan !== undefined ? { lifespan } : {}),
    ...(description !== undefined ? { description } : {}),
    json: values.json === true,
    ...(limit !== undefined ? { limit } : {}),
    ...(out !== undefined ? { out } : {}),
    ...account,
    ...(file !== undefined ? { file } : {}),
    ...transferText,
    noEncrypt: values['no-encrypt'] === true,
    noCompress: values['no-compress'] === true,
    force: values.force === true,
    ...(logFormat !== undefined ? { logFormat } : {}),
    ...(outDir !== undefined ? { outDir } : {}),
    silent: values.silent === true,
    help: values.help === true,
    version: values.version === true,
  };
}

export const USAGE = `Usage: cairn <command> [--dir <project folder>]

Commands:
  start [--log-format pretty|json]
                             sync the database schema, then serve the project (readable log
                             lines in a terminal, JSON otherwise; also CAIRN_LOG_FORMAT)
  develop                    start, and reload in place when src/, config/ or .env changes
  build                      check the admin panel Strapi built is there (Cairn itself needs no build;
                             the panel comes from \`strapi build\`): exit 1 with what to run when missing
  ts:generate-types [--out-dir D] [--silent]
                             write types/generated/contentTypes.d.ts and components.d.ts, as Strapi does
  api-token:create --name N --type full-access|read-only|custom [--permission ACTION]...
                   [--lifespan 7|30|90] [--description D]
                             create a content-API token; prints the access key alone
  api-token:list [--json]    list content-API tokens
  api-token:revoke --name N  delete a token
  content-types:list, policies:list, middlewares:list
                             what Strapi registers for the project, in its table
  routes:list                list the HTTP routes and their permission actions
  openapi [--out F]          print the project's OpenAPI 3.1 document, or write it to F
  webhooks:log [--limit N] [--json]
                             the newest webhook deliveries: status, attempts, last error
  admin:create-user --email E --password P --firstname F [--lastname L]
                             create an admin panel Super Admin (-e -p -f -l)
  admin:reset-user-password --email E --password P
                             set an admin's password and end its sessions
  export [--file F] [--no-encrypt | --key K] [--no-compress] [--only content,files,config] [--exclude …]
                             write the project's data as a Strapi 5 archive (F.tar.gz.enc by default)
  import --file F [--key K] [--force] [--only …] [--exclude …]
                             load an archive written by \`strapi export\` or \`cairn export\`
  version (or --version, -v) print Cairn's version

--dir defaults to the current directory.`;
