import { ApplicationError, ValidationError } from '../core/errors.js';
import type { Query } from '../query/query-types.js';
import { readUserDocument, type AuthContext } from './auth-context.js';
import { checkBody, checkConfirmation, checkPasswordLength } from './auth-body-rules.js';
import { signedIn, type AuthResult } from './auth-result.js';
import { deviceIdOf, issueTokens } from './auth-tokens.js';
import { createExpiringToken, isTokenExpired } from './expiring-token.js';
import { hashPassword, looksHashed, verifyPassword } from './passwords.js';
import { sendTemplateEmail } from './send-template-email.js';

/**
 * `POST /auth/forgot-password { email }`: stores a reset code (valid `resetPasswordTokenTtl`,
 * one hour by default) and emails the link `<email_reset_password>?code=<code>`. Always answers
 * `{ ok: true }`, for unknown and blocked accounts too, so accounts cannot be probed; a failed send
 * is logged, not reported.
 */
export async function forgotPassword(ctx: AuthContext, body: unknown): Promise<AuthResult> {
  const { email } = checkBody(body, [{ name: 'email', email: true }]) as { email: string };
  const user = await ctx.users.byEmail(email);
  if (!user || user.blocked) return { body: { ok: true } };
  const code = createExpiringToken(ctx.config.resetPasswordTokenTtlSeconds, ctx.now().getTime());
  await ctx.users.update(user.id, { reset_password_token: code }, ctx.now());
  const values = { URL: ctx.settings.advanced.email_reset_password ?? '', SERVER_URL: ctx.serverUrl, TOKEN: code, USER: { username: user.username, email: user.email } };
  await sendTemplateEmail(ctx, ctx.settings.templates.reset_password, user.email, values).catch(ctx.onMailError);
  return { body: { ok: true } };
}

/**
 * `POST /auth/reset-password { code, password, passwordConfirmation }`: sets the password of the
 * account holding the code, clears the code (single use, even for concurrent requests), ends the account's other sessions and
 * signs it in. Unknown or expired code → 400 `Incorrect code provided`.
 */
export async function resetPassword(ctx: AuthContext, body: unknown, query: Query): Promise<AuthResult> {
  const { password, passwordConfirmation, code } = checkBody(body, [{ name: 'password' }, { name: 'passwordConfirmation' }, { name: 'code' }]) as Record<string, string>;
  if (password !== passwordConfirmation) throw new ValidationError('Passwords do not match');
  checkPasswordLength(password as string);
  if (looksHashed(password as string)) throw new ValidationError('Your password cannot contain more than three times the symbol `$`');
  const user = await ctx.users.byToken('reset_password_token', code as string);
  if (!user || isTokenExpired(user.resetPasswordToken ?? '', ctx.now().getTime())) throw new ValidationError('Incorrect code provided');
  const changes = { password_hash: await hashPassword(password as string), reset_password_token: null };
  // Spent with a compare-and-set: of concurrent requests with one code, only the first resets.
  if (!(await ctx.users.update(user.id, changes, ctx.now(), { column: 'reset_password_token', value: code as string }))) {
    throw new ValidationError('Incorrect code provided');
  }
  // Whoever knew the old password must not stay signed in (as Strapi's reissueTokensAfterPasswordChange).
  if (ctx.config.jwtManagement === 'refresh') await ctx.sessions.revoke(String(user.id));
  const tokens = await issueTokens(ctx, user.id, { cookieRequested: false, alwaysInBody: true, deviceId: deviceIdOf(body) });
  return signedIn(tokens, await readUserDocument(ctx, user.id, query));
}

/**
 * `POST /auth/change-password { currentPassword, password, passwordConfirmation }` for the
 * signed-in user: checks the current password, refuses the same one, stores the new hash and signs
 * in again. In refresh mode every session of the account ends first (other devices, and whoever
 * knew the old password, are signed out), then one new session opens on `deviceId` — as Strapi's
 * `reissueTokensAfterPasswordChange` does.
 */
export async function changePassword(ctx: AuthContext, userId: number, body: unknown, query: Query): Promise<AuthResult> {
  const { currentPassword, password, passwordConfirmation } = checkBody(body, [{ name: 'currentPassword' }, { name: 'password' }, { name: 'passwordConfirmation' }]) as Record<string, string>;
  checkConfirmation(password as string, passwordConfirmation as string);
  checkPasswordLength(password as string);
  if (looksHashed(password as string)) throw new ValidationError('Your password cannot contain more than three times the symbol `$`');
  const user = await ctx.users.byId(userId);
  if (!user) throw new ApplicationError('You must be authenticated to reset your password');
  if (!(await verifyPassword(currentPassword as string, user.passwordHash))) throw new ValidationError('The provided current password is invalid');
  if (currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
  await ctx.users.update(user.id, { password_hash: await hashPassword(password as string) }, ctx.now());
  if (ctx.config.jwtManagement === 'refresh') await ctx.sessions.revoke(String(user.id));
  const tokens = await issueTokens(ctx, user.id, { cookieRequested: false, alwaysInBody: true, deviceId: deviceIdOf(body) });
  return signedIn(tokens, await readUserDocument(ctx, user.id, query));
}
