import {
  isString,
  minChars,
  problem,
  required,
  sameAs,
  validEmail,
  type BodySchema,
  type FieldCheck,
} from './body-schema.js';

/** bcrypt reads 72 bytes at most: register, reset-password and change-password refuse more, as Strapi does. */
const MAX_PASSWORD_BYTES = 72;

/**
 * A project's own password rule, Strapi's `validationRules.validatePassword(password)` in
 * `config/plugins`: a falsy answer fails with `Password validation failed.`, a throw with its message.
 */
export type PasswordRule = (password: unknown) => unknown;

const passwordBytes: FieldCheck = (value) =>
  typeof value === 'string' && value !== '' && Buffer.byteLength(value, 'utf8') > MAX_PASSWORD_BYTES
    ? problem(['password'], `Password must be less than ${MAX_PASSWORD_BYTES + 1} bytes`, value)
    : undefined;

const projectRule =
  (rule: PasswordRule | null): FieldCheck =>
  async (value) => {
    if (!rule) return undefined;
    try {
      return (await rule(value)) ? undefined : problem(['password'], 'Password validation failed.', value);
    } catch (error) {
      return problem(['password'], (error instanceof Error && error.message) || 'An error occurred.', value);
    }
  };

const text = (name: string, ...tests: FieldCheck[]) => ({ name, initial: [isString(name)], tests });
const newPassword = (rule: PasswordRule | null) =>
  text('password', required('password'), passwordBytes, projectRule(rule));
const confirmation = {
  name: 'passwordConfirmation',
  initial: [isString('passwordConfirmation'), sameAs('passwordConfirmation', 'password', 'Passwords do not match')],
  tests: [required('passwordConfirmation')],
};

/** `POST /auth/local`: identifier and password, any other key ignored. */
export const LOGIN_BODY: BodySchema = {
  fields: [text('identifier', required('identifier')), text('password', required('password'))],
};

/** `POST /auth/local/register`: errors in the order email, username, password. */
export function registerBody(rule: PasswordRule | null): BodySchema {
  return {
    fields: [
      text('email', validEmail('email'), required('email')),
      text('username', required('username')),
      newPassword(rule),
    ],
  };
}

/**
 * `POST /auth/reset-password`, no other key. Errors come as passwordConfirmation, password, code:
 * yup files `passwordConfirmation` under the key `password` (the name occurs in its path) and
 * it arrives first (the password's own rule is asynchronous).
 */
export function resetPasswordBody(rule: PasswordRule | null): BodySchema {
  return { fields: [confirmation, newPassword(rule), text('code', required('code'))], noUnknown: true };
}

/** `POST /auth/change-password`, no other key (not even `deviceId`). Errors come as passwordConfirmation, password, currentPassword. */
export function changePasswordBody(rule: PasswordRule | null): BodySchema {
  return {
    fields: [confirmation, newPassword(rule), text('currentPassword', required('currentPassword'))],
    noUnknown: true,
  };
}

/** `POST /auth/forgot-password`: an email, no other key. */
export const FORGOT_PASSWORD_BODY: BodySchema = {
  fields: [text('email', validEmail('email'), required('email'))],
  noUnknown: true,
};

/** `POST /auth/send-email-confirmation`: an email. */
export const SEND_CONFIRMATION_BODY: BodySchema = { fields: [text('email', validEmail('email'), required('email'))] };

/** `GET /auth/email-confirmation?confirmation=…`. */
export const EMAIL_CONFIRMATION_QUERY: BodySchema = { fields: [text('confirmation', required('confirmation'))] };

/** The string fields of `POST /users`, before its role: email, username, password (1 character at least). */
export const CREATE_USER_FIELDS = [
  text('email', validEmail('email'), required('email')),
  text('username', minChars('username', 1), required('username')),
  text('password', minChars('password', 1), required('password')),
];

/** The fields of `PUT /users/:id` before its role; a password that is not a non-empty string fails (null and '' pass here). */
export const UPDATE_USER_FIELDS = [
  text('email', validEmail('email'), minChars('email', 1)),
  text('username', minChars('username', 1)),
  {
    name: 'password',
    initial: [],
    tests: [
      (value: unknown) =>
        value === null || value === undefined || value === '' || (typeof value === 'string' && value.length >= 1)
          ? undefined
          : problem(['password'], 'Password must be at least 1 character', value),
    ],
  },
];
