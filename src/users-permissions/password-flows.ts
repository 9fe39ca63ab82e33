import { ApplicationError, ValidationError } from '../core/errors.js';
import { hashPassword, verifyPassword } from '../core/password-hash.js';
import type { Query } from '../query/query-types.js';
import { readUserDocument, USER_UID, type AuthContext } from './auth-context.js';
import { changePasswordBody, FORGOT_PASSWORD_BODY, resetPasswordBody } from './auth-body-schemas.js';
import { signedIn, type AuthResult } from './auth-result.js';
import { issueTokens } from './auth-tokens.js';
import { validateBody } from './body-schema.js';
import { createExpiringToken, isTokenExpired } from './expiring-token.js';
import { sendTemplateEmail } from './send-template-email.js';

/**
 * `POST /auth/forgot-password { email }`: stores a reset code (valid `resetPasswordTokenTtl`,
 * one hour by default) and emails the link `<email_reset_password>?code=<code>`. Always answers
 * `{ ok: true }`, for unknown and blocked accounts too, so accounts cannot be probed; a failed send
 * is logged, not reported.
 */
export async function forgotPassword(ctx: AuthContext, body: unknown): Promise<AuthResult> {
  const { email } = (await validateBody(body, FORGOT_PASSWORD_BODY)) as { email: string };
  const user = await ctx.users.byEmail(email);
  if (!user || user.blocked) return { body: { ok: true } };
  const code = createExpiringToken(ctx.config.resetPasswordTokenTtlSeconds, ctx.now().getTime());
  await ctx.users.update(user.id, { reset_password_token: code }, ctx.now());
  const values = {
    URL: ctx.settings.advanced.email_reset_password ?? '',
    SERVER_URL: ctx.serverUrl,
    TOKEN: code,
    USER: { username: user.username, email: user.email },
  };
  await sendTemplateEmail(ctx, ctx.settings.templates.reset_password, user.email, values).catch(ctx.onMailError);
  return { body: { ok: true } };
}

/**
 * `POST /auth/reset-password { code, password, passwordConfirmation }`: sets the password of the
 * account holding the code, clears the code (single use, even for concurrent requests), ends the
 * account's other sessions and signs it in. Unknown or expired code → 400 `Incorrect code
 * provided`; a new password of fewer than 6 characters is refused only then, as in Strapi.
 */
export async function resetPassword(ctx: AuthContext, body: unknown, query: Query): Promise<AuthResult> {
  const { password, code } = (await validateBody(body, resetPasswordBody(ctx.config.validatePassword))) as Record<
    string,
    string
  >;
  const user = await ctx.users.byToken('reset_password_token', code as string);
  if (!user || isTokenExpired(user.resetPasswordToken ?? '', ctx.now().getTime()))
    throw new ValidationError('Incorrect code provided');
  checkUserTypeRules(ctx, password as string);
  const changes = { password_hash: await hashPassword(password as string), reset_password_token: null };
  // Spent with a compare-and-set: of concurrent requests with one code, only the first resets.
  if (
    !(await ctx.users.update(user.id, changes, ctx.now(), { column: 'reset_password_token', value: code as string }))
  ) {
    throw new ValidationError('Incorrect code provided');
  }
  // Whoever knew the old password must not stay signed in (as Strapi's reissueTokensAfterPasswordChange).
  if (ctx.config.jwtManagement === 'refresh') await ctx.sessions.revoke(String(user.id));
  const tokens = await issueTokens(ctx, user.id, { cookieRequested: false, alwaysInBody: true });
  return signedIn(tokens, await readUserDocument(ctx, user.id, query));
}

/**
 * `POST /auth/change-password { currentPassword, password, passwordConfirmation }` for the
 * signed-in user: checks the current password, refuses the same one, stores the new hash and signs
 * in again. In refresh mode every session of the account ends first (other devices, and whoever
 * knew the old password, are signed out), then one new session opens — as Strapi's
 * `reissueTokensAfterPasswordChange` does. The body takes no other key (Strapi refuses even
 * `deviceId` there).
 */
export async function changePassword(
  ctx: AuthContext,
  userId: number,
  body: unknown,
  query: Query,
): Promise<AuthResult> {
  const { currentPassword, password } = (await validateBody(
    body,
    changePasswordBody(ctx.config.validatePassword),
  )) as Record<string, string>;
  const user = await ctx.users.byId(userId);
  if (!user) throw new ApplicationError('You must be authenticated to reset your password');
  if (!(await verifyPassword(currentPassword as string, user.passwordHash)))
    throw new ValidationError('The provided current password is invalid');
  if (currentPassword === password)
    throw new ValidationError('Your new password must be different than your current password');
  checkUserTypeRules(ctx, password as string);
  await ctx.users.update(user.id, { password_hash: await hashPassword(password as string) }, ctx.now());
  if (ctx.config.jwtManagement === 'refresh') await ctx.sessions.revoke(String(user.id));
  const tokens = await issueTokens(ctx, user.id, { cookieRequested: false, alwaysInBody: true });
  return signedIn(tokens, await readUserDocument(ctx, user.id, query));
}

/** The user type's own rules for a new password (6 characters at least), as Strapi's user update applies them. */
function checkUserTypeRules(ctx: AuthContext, password: string): void {
  const validate = ctx.documents.validators.get(USER_UID);
  if (!validate) throw new Error(`No validator compiled for ${USER_UID}`);
  validate({ password }, { creating: false, draft: false });
}
