import { DEFAULT_ADVANCED_SETTINGS, type AdvancedSettings } from '../config/users-permissions-config.js';
import { readOrCreateStoreValue, writeStoreValue } from '../db/core-store.js';
import type { Database } from '../db/database.js';
const KEY = (name: string) => `plugin_users-permissions_${name}`;

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
  const stored = {
    ...DEFAULT_ADVANCED_SETTINGS,
    ...(await readOrCreateStoreValue(db, db, KEY('advanced'), DEFAULT_ADVANCED_SETTINGS)),
  } as AdvancedSettings;
  const advanced = { ...stored, ...advancedAsCode };
  if (Object.keys(advancedAsCode).length > 0) await writeStoreValue(db, db, KEY('advanced'), advanced);
  const email = (await readOrCreateStoreValue(db, db, KEY('email'), DEFAULT_TEMPLATES)) as Partial<
    typeof DEFAULT_TEMPLATES
  >;
  const grant = (await readOrCreateStoreValue(db, db, KEY('grant'), DEFAULT_GRANT)) as {
    email?: { enabled?: unknown };
  };
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
