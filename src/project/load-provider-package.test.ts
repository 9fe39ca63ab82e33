import { describe, expect, it } from 'vitest';
import { installName, messageOf, providerPackageNames } from './load-provider-package.js';

describe('providerPackageNames', () => {
  it.each<[Parameters<typeof providerPackageNames>, readonly [string, string]]>([
    [
      ['upload', 'aws-s3'],
      ['@strapi/provider-upload-aws-s3', 'aws-s3'],
    ],
    [
      ['upload', 'Cloudinary'],
      ['@strapi/provider-upload-cloudinary', 'cloudinary'],
    ],
    [
      ['email', 'sendgrid'],
      ['@strapi/provider-email-sendgrid', 'sendgrid'],
    ],
    [
      ['upload', '@strapi/provider-upload-aws-s3'],
      ['@strapi/provider-upload-@strapi/provider-upload-aws-s3', '@strapi/provider-upload-aws-s3'],
    ],
    [
      ['email', 'strapi-provider-email-x'],
      ['@strapi/provider-email-strapi-provider-email-x', 'strapi-provider-email-x'],
    ],
  ])('%j → %j', (args, expected) => {
    expect(providerPackageNames(...args)).toEqual(expected);
  });
});

describe('installName', () => {
  it.each<[Parameters<typeof installName>, string]>([
    [['upload', 'aws-s3'], '@strapi/provider-upload-aws-s3'],
    [['email', 'Mailgun'], '@strapi/provider-email-mailgun'],
    [['upload', '@strapi/provider-upload-cloudinary'], '@strapi/provider-upload-cloudinary'],
    [['upload', '@acme/storage'], '@acme/storage'],
    [['email', 'strapi-provider-email-brevo'], 'strapi-provider-email-brevo'],
  ])('%j → %s', (args, expected) => {
    expect(installName(...args)).toBe(expected);
  });
});

describe('messageOf', () => {
  it('keeps the first line of an error message', () => {
    expect(messageOf(new Error('bad key\n    at init (index.js:1:1)'))).toBe('bad key');
    expect(messageOf('plain')).toBe('plain');
    expect(messageOf(new Error(''))).toBe('unknown error');
  });
});
