import { createCipheriv, createDecipheriv, scryptSync, type Cipher, type Decipher } from 'node:crypto';

/**
 * The encryption of Strapi's archives (`.tar.gz.enc`): the whole file (after gzip) through
 * AES-128-ECB, with a 16-byte key derived from the key text by scrypt with an empty salt and
 * Node's default cost (N = 16384, r = 8, p = 1), PKCS#7 padding. The same key text gives the
 * same file bytes in Strapi and in Cairn, so either can read what the other wrote.
 */
const ALGORITHM = 'aes-128-ecb';

function derivedKey(key: string): Buffer {
  return scryptSync(key, '', 16);
}

/** A transform stream encrypting an archive with `key`. */
export function encryptionCipher(key: string): Cipher {
  return createCipheriv(ALGORITHM, derivedKey(key), null);
}

/** A transform stream decrypting an archive with `key` (a wrong key fails at the end: bad padding, or garbage for gzip). */
export function decryptionCipher(key: string): Decipher {
  return createDecipheriv(ALGORITHM, derivedKey(key), null);
}
