import { ApplicationError, ValidationError } from '../core/errors.js';
import type { AuthContext } from './auth-context.js';
import { EMAIL_CONFIRMATION_QUERY, SEND_CONFIRMATION_BODY } from './auth-body-schemas.js';
import type { AuthResult } from './auth-result.js';
import { validateBody } from './body-schema.js';
import { createExpiringToken, isTokenExpired } from './expiring-token.js';
import { sendTemplateEmail } from './send-template-email.js';

/**
 * Gives the user a new confirmation token (valid `emailConfirmationTokenTtl`) and emails the
 * confirmation link `<server.url>/api/auth/email-confirmation?confirmation=<token>`.
 */
export async function sendConfirmationEmail(ctx: AuthContext, userId: number, email: string): Promise<void> {
  const token = createExpiringToken(ctx.config.emailConfirmationTokenTtlSeconds, ctx.now().getTime());
  await ctx.users.update(userId, { confirmation_token: token }, ctx.now());
  const user = await ctx.users.byId(userId);
  const values = {
    URL: `${ctx.apiUrl}/auth/email-confirmation`,
    SERVER_URL: ctx.serverUrl,
    CODE: token,
    USER: { username: user?.username, email },
  };
  await sendTemplateEmail(ctx, ctx.settings.templates.email_confirmation, email, values);
}

/**
 * `GET /auth/email-confirmation?confirmation=…`: confirms the account holding the token (once;
 * the token is then cleared) and redirects to `email_confirmation_redirection` (or `/`).
 * Unknown or expired tokens → 400 `Invalid token`.
 */
export async function confirmEmail(ctx: AuthContext, query: Readonly<Record<string, unknown>>): Promise<AuthResult> {
  const { confirmation } = await validateBody({ confirmation: query.confirmation }, EMAIL_CONFIRMATION_QUERY);
  const user = await ctx.users.byToken('confirmation_token', confirmation as string);
  if (!user || isTokenExpired(user.confirmationToken ?? '', ctx.now().getTime()))
    throw new ValidationError('Invalid token');
  const spent = await ctx.users.update(user.id, { confirmed: true, confirmation_token: null }, ctx.now(), {
    column: 'confirmation_token',
    value: confirmation as string,
  });
  if (!spent) throw new ValidationError('Invalid token');
  return { body: {}, redirect: ctx.settings.advanced.email_confirmation_redirection || '/' };
}

/**
 * `POST /auth/send-email-confirmation { email }`: sends a new link to an unconfirmed account.
 * An unknown email answers the same `{ email, sent: true }`, so accounts cannot be probed.
 */
export async function resendConfirmation(ctx: AuthContext, body: unknown): Promise<AuthResult> {
  const { email } = (await validateBody(body, SEND_CONFIRMATION_BODY)) as { email: string };
  const user = await ctx.users.byEmail(email);
  if (!user) return { body: { email, sent: true } };
  if (user.confirmed) throw new ApplicationError('Already confirmed');
  if (user.blocked) throw new ApplicationError('User blocked');
  await sendConfirmationEmail(ctx, user.id, user.email).catch((error: unknown) => {
    ctx.onMailError(error);
    throw new ApplicationError('Error sending confirmation email');
  });
  return { body: { email: user.email, sent: true } };
}
