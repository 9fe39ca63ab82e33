import { ApplicationError, fieldValidationError, ValidationError, type FieldError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import { requireBody } from '../../users-permissions/role-input.js';

type Json = Record<string, unknown>;

/** Where advanced settings given as code live, named in the refusal of a change to one of them. */
const PLUGINS_FILE = 'config/plugins.js';
/** The names a template may interpolate, as Strapi's email-template validator allows them. */
const TEMPLATE_NAMES = new Set([
  'URL',
  'ADMIN_URL',
  'SERVER_URL',
  'CODE',
  'USER',
  'USER.email',
  'USER.username',
  'TOKEN',
]);
const TEMPLATES = ['reset_password', 'email_confirmation'] as const;
/** A URL setting: empty, or something with a scheme (`https://…`), as the panel's form checks it. */
const URL_SETTING = /^$|^.+:\/\/.*$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PROVIDER_STRINGS = ['key', 'secret', 'callback', 'subdomain', 'jwksurl', 'icon', 'redirectUri'];

/**
 * Whether an email template only interpolates what Strapi allows: `<%= NAME %>` with NAME one of
 * URL, ADMIN_URL, SERVER_URL, CODE, USER, USER.email, USER.username, TOKEN; no other `<% … %>`
 * tag (code) and no `${…}`.
 *
 *   isValidEmailTemplate('<p><%= URL %>?code=<%= TOKEN %></p>') → true
 *   isValidEmailTemplate('<%= USER.password %>')                → false
 *   isValidEmailTemplate('<% process.exit() %>')                → false
 */
export function isValidEmailTemplate(template: string): boolean {
  if (/<%[^=][^<>%]*%>/.test(template) || /\$\{[^{}]*\}/.test(template)) return false;
  return [...template.matchAll(/<%=([^<>%=]*)%>/g)].every((match) => TEMPLATE_NAMES.has((match[1] ?? '').trim()));
}

/**
 * `PUT /users-permissions/advanced`: the stored advanced settings with the body's known keys
 * checked and applied (other keys are ignored). `unique_email`, `allow_register`,
 * `email_confirmation` are booleans (null, the panel's Clear, is stored as false, which is what
 * Strapi makes of it); `email_reset_password`, `email_confirmation_redirection` a
 * URL, '' or null; `default_role` the type of an existing role. A key set as code
 * (`users-permissions.config.advanced`) may only be sent unchanged: Cairn writes it back at every
 * start.
 *
 *   parseAdvancedSettings({ allow_register: false }, stored, {}, ['authenticated', 'public'])
 *     → { ...stored, allow_register: false }
 */
export function parseAdvancedSettings(body: unknown, stored: Json, asCode: Json, roleTypes: readonly string[]): Json {
  const values = requireBody(body);
  const errors: FieldError[] = [];
  const checked: Json = {};
  const fail = (key: string, message: string) =>
    errors.push({ path: [key], message: `${key} ${message}`, name: 'ValidationError', value: values[key] });
  for (const key of ['unique_email', 'allow_register', 'email_confirmation']) {
    if (values[key] === undefined) continue;
    if (typeof values[key] === 'boolean' || values[key] === null) checked[key] = values[key] === true;
    else fail(key, 'must be a boolean');
  }
  for (const key of ['email_reset_password', 'email_confirmation_redirection']) {
    const value = values[key];
    if (value === undefined) continue;
    if (value === null || (typeof value === 'string' && URL_SETTING.test(value))) checked[key] = value;
    else fail(key, 'must be a URL (https://…), empty or null');
  }
  const role = values.default_role;
  if (role !== undefined) {
    if (typeof role === 'string' && roleTypes.includes(role)) checked.default_role = role;
    else fail('default_role', `must be the type of an existing role: ${roleTypes.join(', ')}`);
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  const fixed = Object.keys(asCode).filter((key) => key in checked && checked[key] !== asCode[key]);
  if (fixed.length > 0) {
    throw new ApplicationError(
      `${fixed.join(', ')} ${fixed.length > 1 ? 'are' : 'is'} set in ${PLUGINS_FILE} (users-permissions.config.advanced) at every start: change ${fixed.length > 1 ? 'them' : 'it'} in that file and restart`,
      { settings: fixed, file: PLUGINS_FILE },
    );
  }
  return { ...stored, ...checked };
}

/**
 * `PUT /users-permissions/email-templates` (`{ "email-templates": { reset_password: { options }, … } }`):
 * the stored templates with the given ones' options replaced. Each template's options need
 * `from.name`, `from.email` (an email), `object` and `message` as strings and `response_email`
 * an email or ''; a message interpolating anything but Strapi's names is 400 `Invalid template`,
 * Strapi's answer. Templates not sent keep their stored options; `display` and `icon` stay.
 */
export function parseEmailTemplates(body: unknown, stored: Json): Json {
  const templates = requireBody(body)['email-templates'];
  if (!isRecord(templates)) throw objectError(['email-templates'], templates);
  const result: Json = { ...stored };
  const errors: FieldError[] = [];
  for (const [name, template] of Object.entries(templates)) {
    if (!(TEMPLATES as readonly string[]).includes(name)) {
      throw new ValidationError(`Unknown email template: ${name} (use ${TEMPLATES.join(' or ')})`, { template: name });
    }
    const at = ['email-templates', name, 'options'];
    const options = isRecord(template) ? template.options : undefined;
    if (!isRecord(options)) throw objectError(at, options);
    const from = isRecord(options.from) ? options.from : {};
    const text = (path: readonly string[], value: unknown, rule?: RegExp, ruleMessage?: string) => {
      const where = [...at, ...path];
      if (typeof value !== 'string' || (value.trim() === '' && path.at(-1) !== 'response_email')) {
        errors.push({
          path: where,
          message: `${where.join('.')} must be a non-empty string`,
          name: 'ValidationError',
          ...(value === undefined ? {} : { value }),
        });
      } else if (rule && value !== '' && !rule.test(value)) {
        errors.push({ path: where, message: `${where.join('.')} ${ruleMessage}`, name: 'ValidationError', value });
      }
      return String(value);
    };
    const checked = {
      from: {
        name: text(['from', 'name'], from.name),
        email: text(['from', 'email'], from.email, EMAIL, 'must be a valid email'),
      },
      response_email: text(['response_email'], options.response_email ?? '', EMAIL, 'must be a valid email'),
      object: text(['object'], options.object),
      message: text(['message'], options.message),
    };
    if (errors.length === 0 && !isValidEmailTemplate(checked.message)) throw new ValidationError('Invalid template');
    const before = isRecord(stored[name]) ? stored[name] : {};
    result[name] = { ...before, options: checked };
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  return result;
}

/**
 * `PUT /users-permissions/providers` (`{ providers: { email: { enabled }, github: {…}, … } }`):
 * the stored login providers with the given ones' settings applied. Each needs a boolean
 * `enabled`; `key`, `secret`, `callback`, `subdomain`… are strings, `scope` a list of strings;
 * `redirectUri` is computed, not stored. A provider that is not stored is a 400. Cairn signs in
 * with email and password only: turning on a third-party provider is a 400 saying so (one Strapi
 * had already turned on stays as it is); its keys may still be stored, for Strapi.
 */
export function parseProviders(body: unknown, stored: Json): Json {
  const providers = requireBody(body).providers;
  if (!isRecord(providers)) throw objectError(['providers'], providers);
  const result: Json = { ...stored };
  const errors: FieldError[] = [];
  const turnedOn: string[] = [];
  for (const [name, given] of Object.entries(providers)) {
    const before = stored[name];
    if (!isRecord(before)) throw new ValidationError(`Unknown provider: ${name}`, { provider: name });
    if (!isRecord(given)) throw objectError(['providers', name], given);
    const fail = (key: string, message: string) =>
      errors.push({
        path: ['providers', name, key],
        message: `providers.${name}.${key} ${message}`,
        name: 'ValidationError',
        value: given[key],
      });
    if (typeof given.enabled !== 'boolean') fail('enabled', 'must be a boolean');
    for (const key of PROVIDER_STRINGS) {
      if (given[key] !== undefined && typeof given[key] !== 'string') fail(key, 'must be a string');
    }
    const scope = given.scope;
    if (scope !== undefined && !(Array.isArray(scope) && scope.every((item) => typeof item === 'string'))) {
      fail('scope', 'must be a list of strings');
    }
    if (name !== 'email' && given.enabled === true && before.enabled !== true) turnedOn.push(name);
    const settings = { ...given };
    delete settings.redirectUri;
    result[name] = name === 'email' ? { ...before, enabled: given.enabled } : { ...before, ...settings };
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  if (turnedOn.length > 0) {
    throw new ApplicationError(
      `Cairn signs users in with email and password only: ${turnedOn.join(', ')} cannot be enabled (third-party providers are not offered)`,
      { providers: turnedOn },
    );
  }
  return result;
}

function objectError(path: readonly string[], value: unknown): ValidationError {
  return fieldValidationError([
    {
      path,
      message: `${path.join('.')} must be an object`,
      name: 'ValidationError',
      ...(value === undefined ? {} : { value }),
    },
  ]);
}
