import { ProjectError } from '../core/errors.js';

/**
 * The email contract of Cairn: the message the users-permissions flows build (reset password,
 * email confirmation), the transport that carries it, and the `config/plugins` `email.config` that
 * picks the transport (create-email-transport.ts builds it). Kept in one leaf file so config/ can
 * read the config without loading a transport.
 */
export interface EmailMessage {
  readonly to: string;
  /** Falls back to the provider's `settings.defaultFrom`. */
  readonly from?: string;
  /** Falls back to the provider's `settings.defaultReplyTo`. */
  readonly replyTo?: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

/**
 * Where emails go. `send` resolves once the message is handed over (logged, or accepted by the
 * SMTP server) and rejects with the transport's own error otherwise; callers that answer a client
 * turn that rejection into a `core/errors` class.
 */
export interface EmailTransport {
  send(message: EmailMessage): Promise<void>;
}

/** The default sender fields of Strapi's email plugin `settings`. */
export interface EmailSettings {
  readonly defaultFrom?: string;
  readonly defaultReplyTo?: string;
}

/** No provider configured: emails are logged, not sent. */
export interface LogEmailConfig {
  readonly kind: 'log';
}

/**
 * The `nodemailer` provider: `providerOptions` go to nodemailer's `createTransport` as they are
 * (`host`, `port`, `secure`, `auth: { user, pass }`…), `settings` fill in missing sender fields.
 */
export interface SmtpEmailConfig {
  readonly kind: 'smtp';
  readonly providerOptions: Readonly<Record<string, unknown>>;
  readonly settings: EmailSettings;
}

/** How Cairn sends email, from `config/plugins` `email.config`. */
export type EmailConfig = LogEmailConfig | SmtpEmailConfig;

/** The provider names Strapi resolves to its nodemailer provider (after lower-casing the name). */
const NODEMAILER_NAMES: ReadonlySet<string> = new Set(['nodemailer', '@strapi/provider-email-nodemailer']);

type Obj = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const show = (value: unknown): string => JSON.stringify(value) ?? String(value);
const fail = (problem: string): never => {
  throw new ProjectError(`config/plugins: ${problem}`);
};

/**
 * Reads Strapi's `config/plugins` `email.config` object
 * `{ provider?, providerOptions?, settings?: { defaultFrom?, defaultReplyTo? } }`.
 *
 * `undefined` or `{}` → `{ kind: 'log' }` (Strapi would fall back to `sendmail`; Cairn logs instead);
 * `{ provider: 'nodemailer', providerOptions: { host: 'smtp.x.io' }, settings: { defaultFrom: 'a@x.io' } }`
 * → `{ kind: 'smtp', providerOptions: { host: 'smtp.x.io' }, settings: { defaultFrom: 'a@x.io' } }`
 * (`'@strapi/provider-email-nodemailer'` too); any other provider → ProjectError
 * `config/plugins: email provider "X" is not supported by Cairn; use "nodemailer" (SMTP) or remove it to log emails instead`.
 */
export function parseEmailConfig(raw: unknown): EmailConfig {
  if (raw === undefined || raw === null) return Object.freeze({ kind: 'log' });
  if (!isObject(raw)) return fail(`"email.config" must be an object, got ${show(raw)}`);
  const { provider, providerOptions = {}, settings = {} } = raw;
  if (provider === undefined || provider === null) return Object.freeze({ kind: 'log' });
  if (typeof provider !== 'string' || !NODEMAILER_NAMES.has(provider.toLowerCase())) {
    return fail(
      `email provider "${String(provider)}" is not supported by Cairn; use "nodemailer" (SMTP) or remove it to log emails instead`,
    );
  }
  if (!isObject(providerOptions))
    return fail(`"email.config.providerOptions" must be an object, got ${show(providerOptions)}`);
  return Object.freeze({ kind: 'smtp', providerOptions, settings: parseSettings(settings) });
}

function parseSettings(settings: unknown): EmailSettings {
  if (!isObject(settings)) return fail(`"email.config.settings" must be an object, got ${show(settings)}`);
  const parsed: { defaultFrom?: string; defaultReplyTo?: string } = {};
  for (const key of ['defaultFrom', 'defaultReplyTo'] as const) {
    const value = settings[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string')
      fail(`"email.config.settings.${key}" must be an email address string, got ${show(value)}`);
    parsed[key] = value as string;
  }
  return Object.freeze(parsed);
}
