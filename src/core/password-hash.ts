/**
 * Password hashing for every stored password (users-permissions accounts and content-type
 * `password` attributes), in the format Strapi writes and reads: bcrypt, cost 10.
 *
 * The work runs in native code on libuv's thread pool (the `bcrypt` package: a prebuilt N-API
 * binary inside the npm package, loaded on first use), so the event loop keeps serving other
 * requests while a hash (~70 ms of CPU) is computed.
 */

/** bcrypt cost, as Strapi hashes passwords (`$2…$10$…`). */
const PASSWORD_HASH_ROUNDS = 10;

/**
 * A bcrypt hash of `password` at cost 10: `$2b$10$` + 53 characters. Strapi (bcryptjs) reads
 * `$2b$` as it reads the `$2a$` it writes itself.
 */
export async function hashPassword(password: string): Promise<string> {
  const { default: bcrypt } = await import('bcrypt');
  return bcrypt.hash(password, PASSWORD_HASH_ROUNDS);
}

/** A hash of a random string no one knows: checked when there is no account, so both take as long. */
const NO_ACCOUNT_HASH = '$2b$10$eiKQ6Zbax5ch/Wi2KP7/..hxLA3NSY16XNXgSvQHzJeJr7SmHyuqO';

/**
 * Whether `password` matches the stored bcrypt `hash`. A missing hash (no account, or one made
 * through a provider) still costs one bcrypt comparison, so response times do not tell which
 * identifiers exist. Anything that is not a bcrypt hash matches nothing.
 *
 *   verifyPassword('Passw0rd!', '$2a$10$…' written by Strapi for it) → true
 *   verifyPassword('Passw0rd!', null)                                 → false, after one comparison
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const { default: bcrypt } = await import('bcrypt');
  if (!hash) {
    await bcrypt.compare(password, NO_ACCOUNT_HASH);
    return false;
  }
  try {
    return await bcrypt.compare(password, asRevision2b(hash));
  } catch {
    return false;
  }
}

/**
 * Strapi's hashes come from bcryptjs, which computes `$2a$`, `$2b$` and `$2y$` alike: the
 * corrected algorithm `$2b$` names. Native bcrypt keeps OpenBSD's `$2a$` length bug (a password of
 * 255 bytes or more wraps around to a few bytes), so such a Strapi account would never log in
 * again; read every revision as `$2b$`, as bcryptjs does.
 *
 *   '$2a$10$abc…' → '$2b$10$abc…'     '$2y$10$abc…' → '$2b$10$abc…'     'plain' → 'plain'
 */
function asRevision2b(hash: string): string {
  return /^\$2[ay]\$/.test(hash) ? `$2b$${hash.slice(4)}` : hash;
}
