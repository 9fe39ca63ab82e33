import bcryptjs from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password-hash.js';

/** 276 bytes: past the 255 at which OpenBSD's `$2a$` length counter wraps around. */
const LONG = 'Strapi-long-passphrase-'.repeat(12);

/** Written by Strapi 5.54 (`bcryptjs` 2.4.3 `hashSync(password, 10)`, as its document service hashes). */
const STRAPI_HASHES: readonly (readonly [string, string, string])[] = [
  ['ASCII', 'Passw0rd!', '$2a$10$vQyoe76N/fnS2do54aDoGOLgG0QzmhWzeYEM7O8xnOJFiXfLuAJga'],
  ['non-ASCII', 'pässwörd-😀', '$2a$10$zNvb1BiqcP9BfO/4i2PPcuItHHMBVRWDPOHrWdtn70Id8hwSO43Ry'],
  ['276-byte', LONG, '$2a$10$jyUiLMUQ1BKZzYuiRE7sQOMkCiHINgE/qehoqm.SZ58m1WDOFnIXq'],
];
const OWN_PASSWORDS: readonly (readonly [string, string])[] = [
  ['ASCII', 'Passw0rd!'],
  ['non-ASCII', 'pässwörd-😀'],
  ['NUL-byte', 'a\u0000b'],
  ['276-byte', LONG],
];

describe('password hashes', () => {
  it.each(STRAPI_HASHES)(
    'a hash Strapi wrote for an %s password verifies, a wrong password does not',
    async (_label, password, hash) => {
      expect(await verifyPassword(password, hash)).toBe(true);
      expect(await verifyPassword(`${password}x`.slice(1), hash)).toBe(false);
    },
  );

  it('reads $2y$ and $2b$ as bcryptjs does', async () => {
    const [, password, hash] = STRAPI_HASHES[0]!;
    expect(await verifyPassword(password, `$2y$${hash.slice(4)}`)).toBe(true);
    expect(await verifyPassword(password, `$2b$${hash.slice(4)}`)).toBe(true);
  });

  it.each(OWN_PASSWORDS)(
    'hashes an %s password as $2b$, cost 10, and bcryptjs (Strapi) verifies it',
    async (_label, password) => {
      const hash = await hashPassword(password);
      expect(hash).toMatch(/^\$2b\$10\$[./A-Za-z0-9]{53}$/);
      expect(bcryptjs.compareSync(password, hash)).toBe(true);
      expect(bcryptjs.compareSync('other', hash)).toBe(false);
      expect(await verifyPassword(password, hash)).toBe(true);
    },
  );

  it('no hash, or something that is not a bcrypt hash, matches nothing', async () => {
    expect(await verifyPassword('Passw0rd!', null)).toBe(false);
    expect(await verifyPassword('Passw0rd!', '')).toBe(false);
    expect(await verifyPassword('Passw0rd!', 'Passw0rd!')).toBe(false);
    expect(await verifyPassword('Passw0rd!', '$2x$10$vQyoe76N/fnS2do54aDoGOLgG0QzmhWzeYEM7O8xnOJFiXfLuAJga')).toBe(
      false,
    );
  });
});
