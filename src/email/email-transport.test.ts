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

  it.each<[unknown, EmailConfig]>([
    [
      {
        provider: 'sendgrid',
        providerOptions: { apiKey: 'k' },
        settings: { defaultFrom: 'a@x.io', testAddress: 't@x.io' },
      },
      {
        kind: 'provider',
        provider: 'sendgrid',
        providerOptions: { apiKey: 'k' },
        settings: { defaultFrom: 'a@x.io', testAddress: 't@x.io' },
        missingProvider: 'fail',
      },
    ],
    [
      { provider: 'strapi-provider-email-x', missingProvider: 'fallback', settings: { defaultReplyTo: null } },
      {
        kind: 'provider',
        provider: 'strapi-provider-email-x',
        providerOptions: {},
        settings: {},
        missingProvider: 'fallback',
      },
    ],
  ])('another provider: %j → %j', (raw, expected) => {
    expect(parseEmailConfig(raw)).toEqual(expected);
  });

  it.each<[unknown, string]>([
    [{ provider: '' }, 'config/plugins: "email.config.provider" must be a package name such as "sendgrid", got ""'],
    [{ provider: 3 }, 'config/plugins: "email.config.provider" must be a package name such as "sendgrid", got 3'],
    [
      { provider: 'sendgrid', missingProvider: 'log' },
      'config/plugins: email "missingProvider" must be "fail" or "fallback", got "log"',
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
