import { describe, expect, it } from 'vitest';
import { ProjectError } from '../core/errors.js';
import { parseEmailConfig, type EmailConfig } from './email-transport.js';

describe('parseEmailConfig', () => {
  const smtp = { host: 'smtp.example.com', port: 587, auth: { user: 'u', pass: 'p' } };

  it.each<[unknown, EmailConfig]>([
    [undefined, { kind: 'log' }],
    [null, { kind: 'log' }],
    [{}, { kind: 'log' }],
    [{ providerOptions: smtp }, { kind: 'log' }],
    [{ provider: 'nodemailer' }, { kind: 'smtp', providerOptions: {}, settings: {} }],
    [
      { provider: 'Nodemailer', providerOptions: smtp },
      { kind: 'smtp', providerOptions: smtp, settings: {} },
    ],
    [
      {
        provider: '@strapi/provider-email-nodemailer',
        providerOptions: smtp,
        settings: { defaultFrom: 'a@x.io', defaultReplyTo: 'b@x.io' },
      },
      { kind: 'smtp', providerOptions: smtp, settings: { defaultFrom: 'a@x.io', defaultReplyTo: 'b@x.io' } },
    ],
  ])('%j → %j', (raw, expected) => {
    expect(parseEmailConfig(raw)).toEqual(expected);
  });

  it.each<[unknown, string]>([
    [
      { provider: 'sendgrid' },
      'config/plugins: email provider "sendgrid" is not supported by Cairn; use "nodemailer" (SMTP) or remove it to log emails instead',
    ],
    [
      { provider: 'sendmail' },
      'config/plugins: email provider "sendmail" is not supported by Cairn; use "nodemailer" (SMTP) or remove it to log emails instead',
    ],
    [
      { provider: '' },
      'config/plugins: email provider "" is not supported by Cairn; use "nodemailer" (SMTP) or remove it to log emails instead',
    ],
    [
      { provider: 3 },
      'config/plugins: email provider "3" is not supported by Cairn; use "nodemailer" (SMTP) or remove it to log emails instead',
    ],
    ['nodemailer', 'config/plugins: "email.config" must be an object, got "nodemailer"'],
    [
      { provider: 'nodemailer', providerOptions: 'smtp://x' },
      'config/plugins: "email.config.providerOptions" must be an object, got "smtp://x"',
    ],
    [{ provider: 'nodemailer', settings: [] }, 'config/plugins: "email.config.settings" must be an object, got []'],
    [
      { provider: 'nodemailer', settings: { defaultFrom: 1 } },
      'config/plugins: "email.config.settings.defaultFrom" must be an email address string, got 1',
    ],
  ])('rejects %j', (raw, message) => {
    expect(() => parseEmailConfig(raw)).toThrow(ProjectError);
    expect(() => parseEmailConfig(raw)).toThrow(message);
  });
});
