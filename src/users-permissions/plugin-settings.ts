import { DEFAULT_ADVANCED_SETTINGS, type AdvancedSettings } from '../config/users-permissions-config.js';
import type { Database } from '../db/database.js';
import { eq, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileInsert, compileUpdate } from '../sql/compile-write.js';

const STORE = 'strapi_core_store_settings';
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
      message: '<p>Somebody asked to reset the password of your account.</p>\n\n<p>If it was you, open this link to choose a new one:</p>\n<p><%= URL %>?code=<%= TOKEN %></p>\n\n<p>If it was not you, ignore this email.</p>',
    },
  },
  email_confirmation: {
    display: 'Email.template.email_confirmation',
    icon: 'check-square',
    options: {
      from: FROM,
      response_email: '',
      object: 'Account confirmation',
      message: '<p>Thank you for registering!</p>\n\n<p>Please confirm your email address with this link:</p>\n\n<p><%= URL %>?confirmation=<%= CODE %></p>',
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
export async function loadUsersPermissionsSettings(db: Database, advancedAsCode: Partial<AdvancedSettings>): Promise<UsersPermissionsSettings> {
  const stored = { ...DEFAULT_ADVANCED_SETTINGS, ...(await readOrCreate(db, 'advanced', DEFAULT_ADVANCED_SETTINGS)) } as AdvancedSettings;
  const advanced = { ...stored, ...advancedAsCode };
  if (Object.keys(advancedAsCode).length > 0) await write(db, 'advanced', advanced);
  const email = (await readOrCreate(db, 'email', DEFAULT_TEMPLATES)) as Partial<typeof DEFAULT_TEMPLATES>;
  const grant = (await readOrCreate(db, 'grant', DEFAULT_GRANT)) as { email?: { enabled?: unknown } };
  return {
    advanced,
    templates: {
      reset_password: { ...DEFAULT_TEMPLATES.reset_password.options, ...email.reset_password?.options },
      email_confirmation: { ...DEFAULT_TEMPLATES.email_confirmation.options, ...email.email_confirmation?.options },
    },
    localLoginEnabled: grant.email?.enabled !== false,
  };
}

async function readOrCreate(db: Database, name: string, defaults: object): Promise<Record<string, unknown>> {
  const [row] = await db.all(compileSelect(db.dialect, simpleSelect(STORE, { value: ['value', 'string'] }, eq('key', KEY(name)), { limit: 1 })));
  if (row) {
    try {
      const value: unknown = JSON.parse(String(row.value));
      if (value && typeof value === 'object') return value as Record<string, unknown>;
    } catch {
      // An unreadable entry falls back to the defaults (and is left as it is).
    }
    return { ...defaults };
  }
  const values = rowOf({ key: [KEY(name), 'string'], value: [JSON.stringify(defaults), 'string'], type: ['object', 'string'], environment: [null, 'string'], tag: [null, 'string'] });
  await db.insert(compileInsert(db.dialect, { table: STORE, rows: [values] }), 1);
  return { ...defaults };
}

async function write(db: Database, name: string, value: object): Promise<void> {
  await db.run(compileUpdate(db.dialect, { table: STORE, set: rowOf({ value: [JSON.stringify(value), 'string'] }), where: eq('key', KEY(name)) }));
}

/** Renders a template: `<%= NAME %>` / `<%= USER.email %>` are replaced, unknown names become ''. */
export function renderTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/<%[=-]\s*([\w.]+)\s*%>/g, (_, path: string) => {
    const value = path.split('.').reduce<unknown>((current, key) => (current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined), values);
    return value === undefined || value === null ? '' : String(value);
  });
}
