import { createAdminConditions } from '../access/admin-conditions.js';
import { createAdminAuth } from '../admin/admin-auth.js';
import { createAdminUserStore } from '../admin/admin-users.js';
import { checkAdminBody } from '../admin/admin-body-checks.js';
import { loadAdminPermissions, SUPER_ADMIN_CODE, syncAdminRoles } from '../admin/admin-roles.js';
import { ValidationError, type FieldError } from '../core/errors.js';
import { hashPassword } from '../core/password-hash.js';
import { listLocales, syncLocales } from '../i18n/locales.js';
import { announceCommandChanges, settingsChanged } from '../cluster/announce-command.js';
import { UsageError, type CliArgs } from './cli-args.js';
import { warnLine, withProjectDatabase } from './with-database.js';

type Output = (line: string) => void;

/** Checks the options against Strapi's admin rules; every problem becomes one line of the UsageError. */
function checkOptions(values: Record<string, string | undefined>, rules: Parameters<typeof checkAdminBody>[1]): void {
  try {
    checkAdminBody(values, rules);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const listed = error.details?.errors;
    const problems = (Array.isArray(listed) ? (listed as FieldError[]) : []).map(
      (problem) => `--${problem.path.join('.')}: ${problem.message}`,
    );
    throw new UsageError(problems.length > 0 ? problems.join('\n') : error.message);
  }
}

/**
 * `admin:create-user --email E --password P --firstname F [--lastname L]`: a new, active Super
 * Admin account, as `strapi admin:create-user` makes it (the roles are created first on a
 * database that has none). An email already taken is refused.
 */
export async function createAdminUserCommand(args: CliArgs, out: Output): Promise<void> {
  const { email, password, firstname, lastname } = args;
  if (!email || !password || !firstname)
    throw new UsageError('admin:create-user needs --email, --password and --firstname (--lastname is optional)');
  checkOptions(
    { email, password, firstname, lastname },
    {
      email: { kind: 'email', required: true },
      password: { kind: 'password', required: true },
      firstname: { kind: 'string', required: true },
      lastname: { kind: 'string' },
    },
  );
  const passwordHash = await hashPassword(password);
  await withProjectDatabase(args.dir, async (project, db) => {
    const now = () => new Date();
    const locales = await listLocales(db, await syncLocales(db, project.config.i18n, now()));
    await syncAdminRoles(
      db,
      project.schema,
      locales.map((locale) => locale.code),
      now(),
    );
    const users = createAdminUserStore(db, now);
    await db.transaction(async (tx) => {
      await tx.lock(['admin-register']);
      if (await users.byEmail(email, tx)) throw new UsageError(`an admin with the email "${email}" already exists`);
      const superAdmin = (await users.roles(tx)).find((role) => role.code === SUPER_ADMIN_CODE);
      if (!superAdmin) throw new UsageError('the Super Admin role is missing from admin_roles');
      await users.create(tx, {
        email,
        firstname,
        lastname: lastname ?? null,
        passwordHash,
        roleIds: [superAdmin.id],
      });
    });
    // The admin roles and their permissions may have just been created (an empty database).
    await announceCommandChanges(project.config, [settingsChanged('admin-permissions')], warnLine);
  });
  out(`Created the Super Admin ${email.toLowerCase()}.`);
}

/**
 * `admin:reset-user-password --email E --password P`: replaces an admin account's password, as
 * `strapi admin:reset-user-password` does, and signs the account out everywhere (whoever knew the
 * old password keeps no session).
 */
export async function resetAdminPasswordCommand(args: CliArgs, out: Output): Promise<void> {
  const { email, password } = args;
  if (!email || !password) throw new UsageError('admin:reset-user-password needs --email and --password');
  checkOptions(
    { email, password },
    { email: { kind: 'email', required: true }, password: { kind: 'password', required: true } },
  );
  const passwordHash = await hashPassword(password);
  await withProjectDatabase(args.dir, async (project, db) => {
    const now = () => new Date();
    const users = createAdminUserStore(db, now);
    const userId = await db.transaction(async (tx) => {
      const user = await users.byEmail(email, tx);
      if (!user) throw new UsageError(`no admin has the email "${email}"`);
      await users.setPassword(tx, user.id, passwordHash);
      return user.id;
    });
    const auth = createAdminAuth({
      db,
      config: project.config.admin,
      users,
      permissions: () => loadAdminPermissions(db),
      now,
      production: project.env.NODE_ENV === 'production',
      // Signing out evaluates no permission: the project's conditions are not needed here.
      conditions: createAdminConditions(() => undefined),
    });
    await auth.signOut(userId);
  });
  out(`Reset the password of ${email.toLowerCase()} and ended its sessions.`);
}
