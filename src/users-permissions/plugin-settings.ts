import { DEFAULT_ADVANCED_SETTINGS, type AdvancedSettings } from '../config/users-permissions-config.js';
import { putStoreJson, readOrCreateStoreValue, writeStoreValue } from '../db/core-store.js';
import type { Database, Executor } from '../db/database.js';
const KEY = (name: SettingsEntry) => `plugin_users-permissions_${name}`;

/** The plugin's core-store entries: advanced settings, email templates, login providers (`grant`). */
export type SettingsEntry = 'advanced' | 'email' | 'grant';

/** One email template of the plugin (`<%= URL %>`, `<%= TOKEN %>`, `<%= CODE %>`, `<%= USER.username %>`…). */
export interface EmailTemplate {
  readonly from: { readonly name: string; readonly email: string };
  readonly response_email: string;
  readonly object: string;
  readonly message: string;
}

/** The settings the auth flows read: advanced settings, email templates, local provider switch. */
export interface UsersPermissionsSettings {
  readonly advanced: AdvancedSettings;
  readonly templates: { readonly reset_password: EmailTemplate; readonly email_confirmation: EmailTemplate };
  /** `grant.email.enabled`: login with email/username and password. */
  readonly localLoginEnabled: boolean;
}

const FROM = { name: 'Administration Panel', email: 'no-reply@strapi.io' };
const DEFAULT_TEMPLATES = {
  reset_password: {
    display: 'Email.template.reset_password',
    icon: 'sync',
    options: {
      from: FROM,
      response_email: '',
      object: 'Reset password',
      message:
        '<p>Somebody asked to reset the password of your account.</p>\n\n<p>If it was you, open this link to choose a new one:</p>\n<p><%= URL %>?code=<%= TOKEN %></p>\n\n<p>If it was not you, ignore this email.</p>',
    },
  },
  email_confirmation: {
    display: 'Email.template.email_confirmation',
    icon: 'check-square',
    options: {
      from: FROM,
      response_email: '',
      object: 'Account confirmation',
      message:
        '<p>Thank you for registering!</p>\n\n<p>Please confirm your email address with this link:</p>\n\n<p><%= URL %>?confirmation=<%= CODE %></p>',
    },
  },
};
const DEFAULT_GRANT = { email: { enabled: true, icon: 'envelope' } };
const DEFAULTS: Readonly<Record<SettingsEntry, object>> = {
  advanced: DEFAULT_ADVANCED_SETTINGS,
  email: DEFAULT_TEMPLATES,
  grant: DEFAULT_GRANT,
};

/**
 * One core-store entry as Strapi's settings pages show it, created with Strapi's defaults when
 * missing; the advanced settings are completed with the defaults of keys they lack.
 *
 *   readSettingsEntry(tx, db, 'grant') → { email: { enabled: true, icon: 'envelope' } }
 */
export async function readSettingsEntry(
  exec: Executor,
  db: Database,
  name: SettingsEntry,
): Promise<Record<string, unknown>> {
  const stored = await readOrCreateStoreValue(exec, db, KEY(name), DEFAULTS[name]);
  return name === 'advanced' ? { ...DEFAULT_ADVANCED_SETTINGS, ...stored } : stored;
}

/** Replaces one core-store entry (creating it when missing), inside the caller's transaction. */
export async function writeSettingsEntry(
  exec: Executor,
  db: Database,
  name: SettingsEntry,
  value: object,
): Promise<void> {
  await putStoreJson(exec, db, KEY(name), value);
}

/**
 * Reads the plugin's core-store entries (`plugin_users-permissions_advanced|email|grant`), creating
 * them with Strapi's defaults when missing. Advanced settings given as code
 * (`users-permissions.config.advanced`) are written over the stored ones, so the database tells
 * the truth for Strapi serving the same database.
 */
export async function loadUsersPermissionsSettings(
  db: Database,
  advancedAsCode: Partial<AdvancedSettings>,
): Promise<UsersPermissionsSettings> {
  if (Object.keys(advancedAsCode).length > 0) {
    const stored = await readSettingsEntry(db, db, 'advanced');
    await writeStoreValue(db, db, KEY('advanced'), { ...stored, ...advancedAsCode });
  }
  return readUsersPermissionsSettings(db, advancedAsCode);
}

/**
 * The settings as stored now, read without writing anything back (advanced settings given as code
 * still win): what the flows switch to after the admin panel changed a setting.
 */
export async function readUsersPermissionsSettings(
  db: Database,
  advancedAsCode: Partial<AdvancedSettings>,
): Promise<UsersPermissionsSettings> {
  const advanced = { ...(await readSettingsEntry(db, db, 'advanced')), ...advancedAsCode } as AdvancedSettings;
  const email = (await readSettingsEntry(db, db, 'email')) as Partial<typeof DEFAULT_TEMPLATES>;
  const grant = (await readSettingsEntry(db, db, 'grant')) as { email?: { enabled?: unknown } };
  return {
    advanced,
    templates: {
      reset_password: { ...DEFAULT_TEMPLATES.reset_password.options, ...email.reset_password?.options },
      email_confirmation: { ...DEFAULT_TEMPLATES.email_confirmation.options, ...email.email_confirmation?.options },
    },
    localLoginEnabled: grant.email?.enabled !== false,
  };
}

/** Renders a template: `<%= NAME %>` / `<%= USER.email %>` are replaced, unknown names become ''. */
export function renderTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/<%[=-]\s*([\w.]+)\s*%>/g, (_, path: string) => {
    const value = path
      .split('.')
      .reduce<unknown>(
        (current, key) =>
          current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined,
        values,
      );
    return value === undefined || value === null ? '' : String(value);
  });
}
