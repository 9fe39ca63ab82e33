import type { Executor } from '../db/database.js';
import { ApplicationError, ValidationError } from '../core/errors.js';
import { verifyPassword } from '../core/password-hash.js';
import { createDocument } from '../documents/write-documents.js';
import type { Query } from '../query/query-types.js';
import { readUserDocument, type AuthContext } from './auth-context.js';
import { LOGIN_BODY, registerBody } from './auth-body-schemas.js';
import { signedIn, type AuthResult } from './auth-result.js';
import { deviceIdOf, issueTokens } from './auth-tokens.js';
import { validateBody } from './body-schema.js';
import { sendConfirmationEmail } from './confirmation-flows.js';
import { accountLocks } from './user-store.js';

const INVALID_LOGIN = 'Invalid identifier or password';
const ALWAYS_ALLOWED = ['username', 'email', 'password'];

/**
 * `POST /auth/local`: email (any case) or username plus password. Wrong identifier and wrong
 * password answer the same 400, so accounts cannot be probed; then unconfirmed (when confirmation
 * is on) and blocked accounts are refused.
 */
export async function login(
  ctx: AuthContext,
  body: unknown,
  cookieRequested: boolean,
  query: Query,
): Promise<AuthResult> {
  if (!ctx.settings.localLoginEnabled) throw new ApplicationError('This provider is disabled');
  const { identifier, password } = (await validateBody(body, LOGIN_BODY)) as { identifier: string; password: string };
  const user = await ctx.users.byIdentifier(identifier);
  if (!(await verifyPassword(password, user?.passwordHash ?? null)) || !user) throw new ValidationError(INVALID_LOGIN);
  if (ctx.settings.advanced.email_confirmation && !user.confirmed)
    throw new ApplicationError('Your account email is not confirmed');
  if (user.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
  const tokens = await issueTokens(ctx, user.id, { cookieRequested, deviceId: deviceIdOf(body) });
  return signedIn(tokens, await readUserDocument(ctx, user.id, query));
}

/**
 * `POST /auth/local/register`: creates a local account with the default role. Only `username`,
 * `email`, `password` (and `register.allowedFields`) are accepted; the password must fit bcrypt's
 * 72 bytes and the project's `validatePassword` rule, then the user type's own rules (6
 * characters at least); the email is lower-cased; a clash of email or username with any account
 * is refused. Signed in at once, unless email confirmation is on: then a confirmation email is
 * sent and only `{ user }` is answered.
 */
export async function register(ctx: AuthContext, body: unknown, query: Query): Promise<AuthResult> {
  const { advanced } = ctx.settings;
  if (!advanced.allow_register) throw new ApplicationError('Register action is currently disabled');
  const input = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const allowed = [...ALWAYS_ALLOWED, ...ctx.config.registerAllowedFields];
  const invalid = Object.keys(input).filter((key) => !allowed.includes(key));
  if (invalid.length > 0) throw new ValidationError(`Invalid parameters: ${invalid.join(', ')}`);
  const { email, username, password } = (await validateBody(
    input,
    registerBody(ctx.config.validatePassword),
  )) as Record<string, string>;
  const roleId = await ctx.roles.idOfType(advanced.default_role);
  if (roleId === null) throw new ApplicationError('Impossible to find the default role');
  const lowerEmail = (email as string).toLowerCase();
  const clashes = { emails: [lowerEmail, username as string], usernames: [lowerEmail, username as string] };
  // Checked first (before the password is hashed), and again in the write, under the identifiers' locks.
  const refuseTaken = async (exec?: Executor) => {
    if (
      (await ctx.users.countClashes(clashes, 'local', exec)) > 0 ||
      (advanced.unique_email && (await ctx.users.countClashes(clashes, undefined, exec)) > 0)
    ) {
      throw new ApplicationError('Email or Username are already taken');
    }
  };
  await refuseTaken();
  const extra = Object.fromEntries(
    ctx.config.registerAllowedFields.filter((key) => key in input).map((key) => [key, input[key]]),
  );
  const created = await createDocument(
    ctx.documents,
    ctx.userType,
    {
      ...extra,
      username,
      email: lowerEmail,
      password,
      provider: 'local',
      confirmed: !advanced.email_confirmation,
      blocked: false,
      role: roleId,
    },
    query,
    { locks: accountLocks([lowerEmail, username]), check: refuseTaken },
  );
  const userId = Number(created.id);
  if (advanced.email_confirmation) {
    await sendConfirmationEmail(ctx, userId, lowerEmail).catch((error: unknown) => {
      ctx.onMailError(error);
      throw new ApplicationError('Error sending confirmation email');
    });
    return { body: { user: await readUserDocument(ctx, userId, query) } };
  }
  const tokens = await issueTokens(ctx, userId, {
    cookieRequested: false,
    alwaysInBody: true,
    deviceId: deviceIdOf(body),
  });
  return signedIn(tokens, await readUserDocument(ctx, userId, query));
}
