/** bcrypt cost, as Strapi hashes passwords (`$2a$10$…`). */
const ROUNDS = 10;

/** Hashes a password with bcrypt (the library is loaded on first use). */
export async function hashPassword(password: string): Promise<string> {
  const { default: bcrypt } = await import('bcryptjs');
  return bcrypt.hash(password, ROUNDS);
}

/** A hash of a random string no one knows: checked when there is no account, so both take as long. */
const NO_ACCOUNT_HASH = '$2b$10$eiKQ6Zbax5ch/Wi2KP7/..hxLA3NSY16XNXgSvQHzJeJr7SmHyuqO';

/**
 * Whether `password` matches the stored bcrypt `hash`. A missing hash (no account, or one made
 * through a provider) still costs one bcrypt comparison, so response times do not tell which
 * identifiers exist.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const { default: bcrypt } = await import('bcryptjs');
  if (!hash) {
    await bcrypt.compare(password, NO_ACCOUNT_HASH);
    return false;
  }
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}

/**
 * Strapi refuses passwords that look like a bcrypt hash (exactly three `$`), so a client cannot
 * store a chosen hash as the password.
 */
export function looksHashed(password: string): boolean {
  return password.split('$').length === 4;
}

/** bcrypt reads only the first 72 bytes of a password: longer ones are refused rather than truncated. */
export const MAX_PASSWORD_BYTES = 72;
