import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The secrets of a content-API token: the access key itself, its HMAC (what authentication looks
 * up) and its encrypted copy (what the admin panel shows again), all as Strapi 5 makes them, so a
 * token made by Strapi, by the CLI or in the panel works and reads back the same everywhere.
 */

/** What a token's key is hashed and encrypted with: `admin.apiToken.salt` and `admin.secrets.encryptionKey`. */
export interface ApiTokenSecrets {
  readonly salt: string;
  readonly encryptionKey: string | undefined;
}

/** A new access key: 128 random bytes as 256 hex characters (Strapi's length and alphabet). */
export function newAccessKey(): string {
  return randomBytes(128).toString('hex');
}

/** `access_key` = HMAC-SHA512 of the token, keyed with `admin.apiToken.salt`, hex (as Strapi stores it). */
export function hashAccessKey(salt: string, accessKey: string): string {
  return createHmac('sha512', salt).update(accessKey).digest('hex');
}

const VERSION = 'v1';
const IV_BYTES = 16;

function keyOf(encryptionKey: string): Buffer {
  return createHash('sha256').update(encryptionKey).digest();
}

/**
 * `encrypted_key` as Strapi's `admin::encryption` service writes it: AES-256-GCM under
 * SHA-256(encryption key), `v1:<iv hex>:<ciphertext hex>:<tag hex>` with a 16-byte IV. Null
 * without an encryption key (the panel then cannot show the key again, as in Strapi).
 */
export function encryptAccessKey(encryptionKey: string | undefined, accessKey: string): string | null {
  if (!encryptionKey) return null;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(encryptionKey), iv);
  const encrypted = Buffer.concat([cipher.update(accessKey, 'utf8'), cipher.final()]);
  return `${VERSION}:${iv.toString('hex')}:${encrypted.toString('hex')}:${cipher.getAuthTag().toString('hex')}`;
}

/**
 * The access key back from `encrypted_key`, or null when it cannot be read (no encryption key,
 * another key, a damaged value). Reads Strapi's format and the one earlier Cairn versions wrote
 * (`v1:` + base64 of a 12-byte IV, the tag and the ciphertext).
 */
export function decryptAccessKey(encryptionKey: string | undefined, stored: string | null): string | null {
  if (!encryptionKey || !stored) return null;
  const parts = stored.split(':');
  if (parts[0] !== VERSION) return null;
  let iv: Buffer;
  let encrypted: Buffer;
  let tag: Buffer;
  if (parts.length === 4) {
    [iv, encrypted, tag] = parts.slice(1).map((part) => Buffer.from(part, 'hex')) as [Buffer, Buffer, Buffer];
  } else if (parts.length === 2) {
    const packed = Buffer.from(parts[1] ?? '', 'base64');
    [iv, tag, encrypted] = [packed.subarray(0, 12), packed.subarray(12, 28), packed.subarray(28)];
  } else {
    return null;
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(encryptionKey), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(encrypted), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
