/** bcrypt cost, as Strapi hashes passwords (`$2a$10$…`). */
const ROUNDS = 10;

/** Hashes a password with bcrypt (the library is loaded on first use). */
export async function hashPassword(password: string): Promise<string> {
  const { default: bcrypt } = await import('bcryptjs');
  return bcrypt.hash(password, ROUNDS);
}

/** Whether `password` matches the stored bcrypt `hash` (false for a missing hash). */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash) return false;
  const { default: bcrypt } = await import('bcryptjs');
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
