import { expect } from 'vitest';
import { dbStep, errorBody, scenario, type Step } from '../support/scenario.js';

/** Refresh mode with the refresh token in bodies; confirmation required; links to a front end. */
const PLUGINS = `module.exports = () => ({
  'users-permissions': {
    config: {
      jwtManagement: 'refresh',
      advanced: {
        email_confirmation: true,
        email_confirmation_redirection: 'https://app.example.com/confirmed',
        email_reset_password: 'https://app.example.com/reset',
      },
    },
  },
});`;
const SERVER = `module.exports = () => ({ url: 'https://cms.example.com/', app: { keys: ['a', 'b'] } });`;

let clock = Date.now();
const HOUR = 3600 * 1000;
const reader = { username: 'reader', email: 'reader@example.com', password: 'Passw0rd!' };

/** Saves the code after `marker` in the last email sent to `to` as `vars[name]`. */
function mailStep(name: string, to: string, marker: string, save: string, expectedLink: string): Step {
  return dbStep(name, ({ server, vars }) => {
    const mail = server.mails.at(-1);
    expect(mail?.to).toBe(to);
    const text = mail?.text ?? '';
    expect(text).toContain(expectedLink);
    const match = new RegExp(`${marker}=([0-9a-z.]+)`).exec(text);
    expect(match).not.toBeNull();
    vars[save] = match?.[1];
  });
}
const mailCount = (count: number): Step =>
  dbStep(`${count} email(s) sent so far`, ({ server }) => expect(server.mails).toHaveLength(count));
const incorrectCode = errorBody(400, 'ValidationError', 'Incorrect code provided', {});
const invalidToken = errorBody(400, 'ValidationError', 'Invalid token', {});

scenario(
  'email confirmation and password reset (single-use, expiring codes)',
  [
    dbStep('start the clock', () => {
      clock = Date.now();
    }),
    {
      name: 'register with confirmation on: only { user }, unconfirmed',
      method: 'POST',
      path: '/api/auth/local/register',
      body: reader,
      status: 200,
      check: (r) => {
        expect(Object.keys(r.json)).toEqual(['user']);
        expect(r.json.user).toMatchObject({ username: 'reader', confirmed: false });
      },
    },
    mailStep(
      'the confirmation link is emailed',
      'reader@example.com',
      'confirmation',
      'code1',
      'https://cms.example.com/api/auth/email-confirmation?confirmation=',
    ),
    {
      name: 'an unconfirmed account cannot log in',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'reader', password: 'Passw0rd!' },
      status: 400,
      equal: errorBody(400, 'ApplicationError', 'Your account email is not confirmed', {}),
    },
    {
      name: 'resend for an unknown email answers the same (no probing)',
      method: 'POST',
      path: '/api/auth/send-email-confirmation',
      body: { email: 'ghost@example.com' },
      status: 200,
      equal: { email: 'ghost@example.com', sent: true },
    },
    mailCount(1),
    {
      name: 'resend for the account',
      method: 'POST',
      path: '/api/auth/send-email-confirmation',
      body: { email: 'Reader@Example.com' },
      status: 200,
      equal: { email: 'reader@example.com', sent: true },
    },
    mailStep(
      'a new link is emailed',
      'reader@example.com',
      'confirmation',
      'code2',
      'https://cms.example.com/api/auth/email-confirmation?confirmation=',
    ),
    {
      name: 'the replaced code no longer confirms',
      path: '/api/auth/email-confirmation?confirmation={{code1}}',
      status: 400,
      equal: invalidToken,
    },
    {
      name: 'no code: 400',
      path: '/api/auth/email-confirmation',
      status: 400,
      match: { error: { message: 'confirmation is a required field' } },
    },
    {
      name: 'the new code confirms and redirects',
      path: '/api/auth/email-confirmation?confirmation={{code2}}',
      status: 302,
      check: (r) => expect(r.headers.location).toBe('https://app.example.com/confirmed'),
    },
    {
      name: 'it works once',
      path: '/api/auth/email-confirmation?confirmation={{code2}}',
      status: 400,
      equal: invalidToken,
    },
    {
      name: 'now login works; without httpOnly both tokens come in the body',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'reader@example.com', password: 'Passw0rd!' },
      status: 200,
      save: { refresh1: 'refreshToken' },
      check: (r) => {
        expect(Object.keys(r.json).sort()).toEqual(['jwt', 'refreshToken', 'user']);
        expect(r.headers['set-cookie']).toBeUndefined();
      },
    },
    {
      name: 'refresh with a body token: both new tokens in the body',
      method: 'POST',
      path: '/api/auth/refresh',
      body: { refreshToken: '{{refresh1}}' },
      status: 200,
      save: { refresh2: 'refreshToken' },
      check: (r) => expect(Object.keys(r.json).sort()).toEqual(['jwt', 'refreshToken']),
    },
    {
      name: 'a confirmed account cannot ask again',
      method: 'POST',
      path: '/api/auth/send-email-confirmation',
      body: { email: 'reader@example.com' },
      status: 400,
      equal: errorBody(400, 'ApplicationError', 'Already confirmed', {}),
    },
    {
      name: 'forgot-password for an unknown email: ok, nothing sent',
      method: 'POST',
      path: '/api/auth/forgot-password',
      body: { email: 'ghost@example.com' },
      status: 200,
      equal: { ok: true },
    },
    mailCount(2),
    {
      name: 'forgot-password with a malformed email',
      method: 'POST',
      path: '/api/auth/forgot-password',
      body: { email: 'nope' },
      status: 400,
      match: { error: { message: 'email must be a valid email' } },
    },
    {
      name: 'forgot-password',
      method: 'POST',
      path: '/api/auth/forgot-password',
      body: { email: 'reader@example.com' },
      status: 200,
      equal: { ok: true },
    },
    mailStep(
      'the reset link is emailed',
      'reader@example.com',
      'code',
      'reset1',
      'https://app.example.com/reset?code=',
    ),
    {
      name: 'passwords that differ',
      method: 'POST',
      path: '/api/auth/reset-password',
      body: { code: '{{reset1}}', password: 'N3w-Passw0rd', passwordConfirmation: 'other' },
      status: 400,
      equal: errorBody(400, 'ValidationError', 'Passwords do not match', {
        errors: [
          {
            path: ['passwordConfirmation'],
            message: 'Passwords do not match',
            name: 'ValidationError',
            value: 'other',
          },
        ],
      }),
    },
    {
      name: 'a wrong code',
      method: 'POST',
      path: '/api/auth/reset-password',
      body: { code: 'abc', password: 'N3w-Passw0rd', passwordConfirmation: 'N3w-Passw0rd' },
      status: 400,
      equal: incorrectCode,
    },
    dbStep('two hours pass', () => {
      clock += 2 * HOUR;
    }),
    {
      name: 'the code has expired (one hour by default)',
      method: 'POST',
      path: '/api/auth/reset-password',
      body: { code: '{{reset1}}', password: 'N3w-Passw0rd', passwordConfirmation: 'N3w-Passw0rd' },
      status: 400,
      equal: incorrectCode,
    },
    {
      name: 'ask again',
      method: 'POST',
      path: '/api/auth/forgot-password',
      body: { email: 'reader@example.com' },
      status: 200,
    },
    mailStep('a new reset link', 'reader@example.com', 'code', 'reset2', 'https://app.example.com/reset?code='),
    {
      name: 'reset: signed in with the new password',
      method: 'POST',
      path: '/api/auth/reset-password',
      body: { code: '{{reset2}}', password: 'N3w-Passw0rd', passwordConfirmation: 'N3w-Passw0rd' },
      status: 200,
      match: { user: { username: 'reader' } },
      check: (r) => expect(Object.keys(r.json).sort()).toEqual(['jwt', 'refreshToken', 'user']),
    },
    {
      name: 'the code works once',
      method: 'POST',
      path: '/api/auth/reset-password',
      body: { code: '{{reset2}}', password: 'An0ther-one', passwordConfirmation: 'An0ther-one' },
      status: 400,
      equal: incorrectCode,
    },
    {
      name: 'sessions opened before the reset are over',
      method: 'POST',
      path: '/api/auth/refresh',
      body: { refreshToken: '{{refresh2}}' },
      status: 401,
      equal: errorBody(401, 'UnauthorizedError', 'Invalid refresh token', {}),
    },
    {
      name: 'the old password is gone',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'reader', password: 'Passw0rd!' },
      status: 400,
    },
    {
      name: 'the new one logs in',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'reader', password: 'N3w-Passw0rd' },
      status: 200,
    },
    {
      name: 'forgot-password once more',
      method: 'POST',
      path: '/api/auth/forgot-password',
      body: { email: 'reader@example.com' },
      status: 200,
    },
    mailStep('a third reset link', 'reader@example.com', 'code', 'reset3', 'https://app.example.com/reset?code='),
    dbStep('concurrent resets with one code: only one succeeds', async ({ server, vars }) => {
      const attempts = ['Rac3-One!', 'Rac3-Two!', 'Rac3-Three!'].map((password) =>
        server.request('POST', '/api/auth/reset-password', {
          body: { code: vars.reset3, password, passwordConfirmation: password },
        }),
      );
      const statuses = (await Promise.all(attempts)).map((r) => r.status).sort();
      expect(statuses).toEqual([200, 400, 400]);
    }),
  ],
  { files: { 'config/plugins.js': PLUGINS, 'config/server.js': SERVER }, now: () => new Date(clock) },
);
