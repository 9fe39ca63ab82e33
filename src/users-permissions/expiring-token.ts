import { randomBytes } from 'node:crypto';

/**
 * A single-use secret for reset-password and email-confirmation links: 64 random bytes (hex) and
 * its expiry (epoch ms, base 36) after a dot. It is stored as it is in Strapi's columns
 * (`reset_password_token`, `confirmation_token`) and looked up by exact equality, so the expiry
 * cannot be edited by the holder. `a3f…9c.lq2x8k0`.
 */
export function createExpiringToken(ttlSeconds: number, nowMs: number): string {
  return `${randomBytes(64).toString('hex')}.${(nowMs + ttlSeconds * 1000).toString(36)}`;
}

/**
 * Whether a stored token has expired. Tokens without an expiry part (written by Strapi itself,
 * which never expires them) are honoured.
 */
export function isTokenExpired(token: string, nowMs: number): boolean {
  const dot = token.lastIndexOf('.');
  if (dot < 0) return false;
  const expiresAt = Number.parseInt(token.slice(dot + 1), 36);
  return !Number.isFinite(expiresAt) || expiresAt <= nowMs;
}
