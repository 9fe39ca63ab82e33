import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptAccessKey, encryptAccessKey, hashAccessKey, newAccessKey } from './api-token-keys.js';

const SECRET = 'an encryption key';

/** A key encrypted the way Strapi 5's `admin::encryption` service writes it, built here independently. */
function strapiEncrypted(value: string, secret: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(secret).digest(), iv);
  const encrypted = cipher.update(value, 'utf8', 'hex') + cipher.final('hex');
  return `v1:${iv.toString('hex')}:${encrypted}:${cipher.getAuthTag().toString('hex')}`;
}

/** A key in the format earlier Cairn versions wrote: `v1:` + base64(12-byte IV | tag | ciphertext). */
function legacyEncrypted(value: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(secret).digest(), iv);
  const encrypted = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`;
}

describe('API token keys', () => {
  const key = newAccessKey();

  it('makes 256-hex-character keys, hashed with HMAC-SHA512 of the salt', () => {
    expect(key).toMatch(/^[0-9a-f]{256}$/);
    expect(hashAccessKey('salt', key)).toMatch(/^[0-9a-f]{128}$/);
    expect(hashAccessKey('salt', key)).not.toBe(hashAccessKey('other salt', key));
  });

  it("writes Strapi's format and reads it back", () => {
    const stored = encryptAccessKey(SECRET, key) ?? '';
    expect(stored).toMatch(/^v1:[0-9a-f]{32}:[0-9a-f]+:[0-9a-f]{32}$/);
    expect(decryptAccessKey(SECRET, stored)).toBe(key);
  });

  it.each([
    ['Strapi', strapiEncrypted],
    ['earlier Cairn', legacyEncrypted],
  ])('reads a key %s encrypted', (_who, encrypt) => {
    expect(decryptAccessKey(SECRET, encrypt(key, SECRET))).toBe(key);
  });

  it.each([
    ['no encryption key', undefined, encryptAccessKey(SECRET, 'k')],
    ['another encryption key', 'another key', encryptAccessKey(SECRET, 'k')],
    ['nothing stored', SECRET, null],
    ['an unknown version', SECRET, 'v2:00:00:00'],
    ['a damaged value', SECRET, 'v1:zz:zz'],
  ])('answers null for %s', (_case, secret, stored) => {
    expect(decryptAccessKey(secret, stored)).toBeNull();
  });

  it('stores nothing readable without an encryption key', () => {
    expect(encryptAccessKey(undefined, key)).toBeNull();
    expect(encryptAccessKey('', key)).toBeNull();
  });
});
