import type { Database } from '../../src/db/database.js';
import type { Condition } from '../../src/plan/plan-types.js';
import { simpleSelect } from '../../src/plan/simple-plans.js';
import { compileSelect } from '../../src/sql/compile-read.js';
import type { CompiledQuery } from '../../src/sql/dialect.js';

/*
 * The secret scan every test server runs on every response body: no bcrypt hash, no password a
 * client sent in a successful request, no reset-password or confirmation token currently stored.
 */

/** The kinds of secret a response body must never contain. */
export type SecretKind = 'bcrypt hash' | 'password' | 'reset_password_token' | 'confirmation_token';

/** A stored single-use token of `up_users`. */
export interface StoredToken {
  readonly kind: 'reset_password_token' | 'confirmation_token';
  readonly value: string;
}

/** What the scan looks for besides bcrypt hashes. */
export interface KnownSecrets {
  readonly passwords: readonly string[];
  readonly tokens: readonly StoredToken[];
}

/** One secret found in a response body. */
export interface SecretLeak {
  readonly kind: SecretKind;
  readonly value: string;
}

/** `$2a$10$…`, `$2b$12$…`, `$2y$…`: the prefix of every bcrypt hash. */
const BCRYPT_HASH = /\$2[aby]\$\d\d\$[./A-Za-z0-9]{0,53}/;

/** Body keys whose string values are recorded as passwords once the request succeeded. */
const PASSWORD_KEYS: ReadonlySet<string> = new Set(['password', 'currentPassword', 'newPassword']);

/**
 * Shorter values are not recorded: Strapi's passwords have at least 6 characters, and a shorter
 * string would match unrelated text.
 */
const MIN_PASSWORD_LENGTH = 6;

/** Paths of the users-permissions routes, the only ones that store reset or confirmation tokens. */
const TOKEN_ROUTES = /\/(auth|users|connect)(\/|\?|$)/;

/**
 * The secrets `text` contains: a bcrypt hash, or any known password or token (as sent, or as it
 * reads inside a JSON string).
 *
 *   findSecretLeaks('{"p":"$2a$10$Xy…"}', { passwords: [], tokens: [] }) → [{ kind: 'bcrypt hash', value: '$2a$10$Xy…' }]
 */
export function findSecretLeaks(text: string, known: KnownSecrets): SecretLeak[] {
  const leaks: SecretLeak[] = [];
  const hash = BCRYPT_HASH.exec(text);
  if (hash) leaks.push({ kind: 'bcrypt hash', value: hash[0] });
  for (const password of known.passwords)
    if (contains(text, password)) leaks.push({ kind: 'password', value: password });
  for (const token of known.tokens)
    if (contains(text, token.value)) leaks.push({ kind: token.kind, value: token.value });
  return leaks;
}

function contains(text: string, secret: string): boolean {
  return text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1));
}

/**
 * The body text to scan. Strapi echoes the client's own `passwordConfirmation` in the 400
 * `Passwords do not match` error (`details.errors[].value`); that echo is left out, nothing else.
 */
export function scannableText(text: string, json: unknown): string {
  const errors = (json as { error?: { details?: { errors?: unknown } } } | undefined)?.error?.details?.errors;
  if (!Array.isArray(errors)) return text;
  const isEcho = (entry: unknown) => {
    const path = (entry as { path?: unknown } | null)?.path;
    return Array.isArray(path) && path.length === 1 && path[0] === 'passwordConfirmation';
  };
  if (!errors.some(isEcho)) return text;
  const redacted = structuredClone(json) as { error: { details: { errors: Record<string, unknown>[] } } };
  for (const entry of redacted.error.details.errors) if (isEcho(entry)) delete entry.value;
  return JSON.stringify(redacted);
}

/** The string values of password keys anywhere in a request body (walked without recursion: hostile bodies nest thousands deep). */
export function passwordsIn(body: unknown): string[] {
  const found: string[] = [];
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (PASSWORD_KEYS.has(key) && typeof inner === 'string') {
          if (inner.length >= MIN_PASSWORD_LENGTH) found.push(inner);
        } else pending.push(inner);
      }
    }
  }
  return found;
}

/** One request and its response, as the scan sees them. */
export interface ScannedExchange {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
}

/** The scan of one test server: it remembers passwords and reads the stored tokens. */
export interface SecretScan {
  /** Whether a statement is the scan's own read (the server's statement log leaves it out). */
  isOwnQuery(query: CompiledQuery): boolean;
  /** Everything the scan currently knows: the recorded passwords and the tokens stored now. */
  known(): Promise<KnownSecrets>;
  /** Records the request's passwords if it succeeded, then throws if the response body leaks a secret. */
  check(exchange: ScannedExchange, mailsSent: number): Promise<void>;
}

/**
 * The scan for a server on `db`. Tokens are read with one SELECT after each response, but only
 * once the server has served a users-permissions route or sent an email (before that, no token
 * can be stored).
 */
export function createSecretScan(db: Database): SecretScan {
  const passwords = new Set<string>();
  let tokensPossible = false;
  const notNull = (column: string): Condition => ({
    kind: 'compare',
    column: { alias: '', column },
    op: 'notNull',
    value: true,
    valueKind: 'string',
  });
  const tokenQuery = compileSelect(
    db.dialect,
    simpleSelect(
      'up_users',
      { scanReset: ['reset_password_token', 'string'], scanConfirmation: ['confirmation_token', 'string'] },
      { kind: 'or', children: [notNull('reset_password_token'), notNull('confirmation_token')] },
    ),
  );
  const storedTokens = async (): Promise<StoredToken[]> => {
    if (!tokensPossible) return [];
    const rows = await db.all(tokenQuery);
    return rows.flatMap((row) => [
      ...(row.scanReset ? [{ kind: 'reset_password_token' as const, value: String(row.scanReset) }] : []),
      ...(row.scanConfirmation ? [{ kind: 'confirmation_token' as const, value: String(row.scanConfirmation) }] : []),
    ]);
  };
  const known = async (): Promise<KnownSecrets> => ({ passwords: [...passwords], tokens: await storedTokens() });
  return {
    isOwnQuery: (query) => query.sql === tokenQuery.sql,
    known,
    async check(exchange, mailsSent) {
      if (exchange.status >= 200 && exchange.status < 400)
        for (const password of passwordsIn(exchange.body)) passwords.add(password);
      if (TOKEN_ROUTES.test(exchange.path) || mailsSent > 0) tokensPossible = true;
      const leaks = findSecretLeaks(scannableText(exchange.text, exchange.json), await known());
      if (leaks.length === 0) return;
      const found = leaks.map((leak) => `a ${leak.kind} (${leak.value.slice(0, 16)}…)`).join(', ');
      throw new Error(
        `secret scan: the response to ${exchange.method} ${exchange.path} (${exchange.status}) contains ${found}: ${exchange.text.slice(0, 300)}`,
      );
    },
  };
}
