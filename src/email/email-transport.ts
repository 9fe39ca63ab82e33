import { missingProviderPolicy, type MissingProviderPolicy } from '../config/missing-provider.js';
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

/** Strapi's email plugin `settings`: the default sender fields, and whatever else a provider reads there. */
export interface EmailSettings {
  readonly defaultFrom?: string;
  readonly defaultReplyTo?: string;
  readonly [other: string]: unknown;
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

/**
 * Any other provider (`sendgrid`, `mailgun`, `amazon-ses`, a community package): loaded from the
 * project's `node_modules` as Strapi loads it (`@strapi/provider-email-<name>`, or the name as a
 * package), `init(providerOptions, settings)`, then `send(options)` per email.
 */
export interface ProviderEmailConfig {
  readonly kind: 'provider';
  /** The name as written in the config. */
  readonly provider: string;
  readonly providerOptions: Readonly<Record<string, unknown>>;
  readonly settings: EmailSettings;
  /** Cairn's `missingProvider`: `fail` (default) stops the start when the package is not installed; `fallback` logs emails instead. */
  readonly missingProvider: MissingProviderPolicy;
}

/** The transports Cairn carries itself, needing no package from the project. */
export type BuiltinEmailConfig = LogEmailConfig | SmtpEmailConfig;

/** How Cairn sends email, from `config/plugins` `email.config`. */
export type EmailConfig = BuiltinEmailConfig | ProviderEmailConfig;

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
 * (`'@strapi/provider-email-nodemailer'` too: Cairn carries nodemailer); any other provider →
 * `{ kind: 'provider', provider: 'sendgrid', providerOptions, settings, missingProvider: 'fail' }`
 * (`missingProvider: 'fallback'` when the config says so), loaded at start by load-email-transport.ts.
 */
export function parseEmailConfig(raw: unknown): EmailConfig {
  if (raw === undefined || raw === null) return Object.freeze({ kind: 'log' });
  if (!isObject(raw)) return fail(`"email.config" must be an object, got ${show(raw)}`);
  const { provider, providerOptions = {}, settings = {} } = raw;
  if (provider === undefined || provider === null) return Object.freeze({ kind: 'log' });
  if (typeof provider !== 'string' || provider.trim() === '')
    return fail(`"email.config.provider" must be a package name such as "sendgrid", got ${show(provider)}`);
  if (!isObject(providerOptions))
    return fail(`"email.config.providerOptions" must be an object, got ${show(providerOptions)}`);
  if (NODEMAILER_NAMES.has(provider.toLowerCase()))
    return Object.freeze({ kind: 'smtp', providerOptions, settings: parseSettings(settings) });
  return Object.freeze({
    kind: 'provider',
    provider,
    providerOptions,
    settings: parseSettings(settings),
    missingProvider: missingProviderPolicy(raw.missingProvider, 'config/plugins: email'),
  });
}

function parseSettings(settings: unknown): EmailSettings {
  if (!isObject(settings)) return fail(`"email.config.settings" must be an object, got ${show(settings)}`);
  const parsed: { -readonly [K in keyof EmailSettings]: EmailSettings[K] } = { ...settings };
  for (const key of ['defaultFrom', 'defaultReplyTo'] as const) {
    const value = settings[key];
    if (value === undefined || value === null) {
      delete parsed[key];
      continue;
    }
    if (typeof value !== 'string')
      fail(`"email.config.settings.${key}" must be an email address string, got ${show(value)}`);
    parsed[key] = value as string;
  }
  return Object.freeze(parsed);
}
