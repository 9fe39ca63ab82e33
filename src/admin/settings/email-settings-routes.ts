import type { Config } from '../../config/config.js';
import { ApplicationError, fieldValidationError, ServiceUnavailableError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { EmailConfig, EmailTransport } from '../../email/email-transport.js';
import type { AdminRoute } from '../admin-route.js';

/** What the email settings routes need: the project's email config and the transport every email goes through. */
export interface EmailSettingsRoutesDeps {
  readonly config: Pick<Config, 'email'>;
  readonly mail: EmailTransport;
}

/**
 * `GET /email/settings` as Strapi's email plugin answers it: `config` holds the provider's name and
 * the default sender fields only, never `providerOptions` (SMTP host, user, password).
 * `provider` is `nodemailer` for the SMTP provider, the configured name for a provider package
 * (`sendgrid`), and `log` when none is configured (Cairn then
 * writes each email to its log instead of sending it; Strapi would fall back to `sendmail`).
 * Cairn's transports cannot check a connection apart from sending: `supportsVerify` is false, so
 * the panel shows no "Test connection" button, and no `capabilities` are reported.
 *
 * `{ kind: 'smtp', settings: { defaultFrom: 'a@x.io' } }` →
 * `{ config: { provider: 'nodemailer', settings: { defaultFrom: 'a@x.io' } }, supportsVerify: false }`.
 */
export function emailSettingsBody(email: EmailConfig): {
  readonly config: { readonly provider: string; readonly settings: Readonly<Record<string, string>> };
  readonly supportsVerify: false;
} {
  const settings: Record<string, string> = {};
  if (email.kind !== 'log') {
    if (email.settings.defaultFrom !== undefined) settings.defaultFrom = email.settings.defaultFrom;
    if (email.settings.defaultReplyTo !== undefined) settings.defaultReplyTo = email.settings.defaultReplyTo;
  }
  const provider = email.kind === 'provider' ? email.provider : email.kind === 'smtp' ? 'nodemailer' : 'log';
  return { config: { provider, settings }, supportsVerify: false };
}

/** One address, as the panel's own form checks it before sending. */
const EMAIL = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;
/** RFC 5321's limit on an address. */
const MAX_EMAIL = 254;

/**
 * Settings → Email → Configuration, as Strapi 5.54's email plugin serves it to the panel, behind
 * `plugin::email.settings.read`:
 *
 * - `GET /email/settings` → `emailSettingsBody` (not wrapped in `data`, as Strapi answers it);
 * - `POST /email/test` `{ to }` → `{}` once the transport took the test email (Strapi's subject
 *   `Strapi test mail to: <to>` and text). No `to` is Strapi's 400 `No recipient(s) are given`; a
 *   `to` that is not one email address is a 400 `ValidationError` (Strapi hands it to the
 *   provider); a transport that fails is a 503 `Couldn't send test email: <reason>.` (Strapi: 500);
 * - `POST /email/verify` → 400 `This email provider does not support connection verification`,
 *   as Strapi answers for a provider without `verify` (the panel does not call it then).
 */
export function emailSettingsRoutes(deps: EmailSettingsRoutesDeps): AdminRoute[] {
  const permission = { action: 'plugin::email.settings.read' };
  const provider = emailSettingsBody(deps.config.email).config.provider;
  return [
    {
      method: 'GET',
      path: '/email/settings',
      auth: 'admin',
      permission,
      handle: async () => ({ status: 200, body: emailSettingsBody(deps.config.email) }),
    },
    {
      method: 'POST',
      path: '/email/test',
      auth: 'admin',
      permission,
      handle: async (request) => {
        const to = isRecord(request.body) ? request.body.to : undefined;
        if (to === undefined || to === null || to === '') throw new ApplicationError('No recipient(s) are given');
        if (typeof to !== 'string' || to.length > MAX_EMAIL || !EMAIL.test(to))
          throw fieldValidationError([
            { path: ['to'], message: 'to must be a valid email', name: 'ValidationError', value: to },
          ]);
        try {
          await deps.mail.send({
            to,
            subject: `Strapi test mail to: ${to}`,
            text: `Great! You have correctly configured the Strapi email plugin with the ${provider} provider. \r\nFor documentation on how to use the email plugin checkout: https://docs.strapi.io/developer-docs/latest/plugins/email.html`,
          });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new ServiceUnavailableError(`Couldn't send test email: ${reason}.`);
        }
        return { status: 200, body: {} };
      },
    },
    {
      method: 'POST',
      path: '/email/verify',
      auth: 'admin',
      permission,
      handle: async () => {
        throw new ApplicationError('This email provider does not support connection verification');
      },
    },
  ];
}
