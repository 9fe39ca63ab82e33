import { sanitizeDataPayload } from '../access/sanitize-input.js';
import type { Executor } from '../db/database.js';
import { ApplicationError, NotFoundError, ValidationError } from '../core/errors.js';
import { createDocument, deleteDocument, updateDocument } from '../documents/write-documents.js';
import type { Query } from '../query/query-types.js';
import type { Document } from '../shape/shape-rows.js';
import { readUserDocument, type AuthContext } from './auth-context.js';
import { validateBody } from './body-schema.js';
import { accountLocks } from './user-store.js';
import { CREATE_USER_BODY, UPDATE_USER_BODY } from './user-body-schemas.js';

/**
 * `POST /api/users` (body not wrapped in `data`): a local account. As Strapi's user controller:
 * the body's rules first (`email`, `username`, `password`, `role` required, errors in that
 * order), then `Email already taken`; any problem of the write itself (the user type's rules,
 * a taken username) answers as an ApplicationError carrying only its message.
 */
export async function createUser(ctx: AuthContext, body: unknown, query: Query): Promise<Document> {
  const checked = await validateBody(body, CREATE_USER_BODY);
  const email = (checked.email as string).toLowerCase();
  // Checked first, and again in the write, under the email's lock.
  const refuseTaken = async (exec?: Executor) => {
    if (
      ctx.settings.advanced.unique_email &&
      (await ctx.users.countClashes({ emails: [email], usernames: [] }, undefined, exec)) > 0
    ) {
      throw new ApplicationError('Email already taken');
    }
  };
  await refuseTaken();
  const input = sanitizeDataPayload(ctx.documents.schema, ctx.userType, { data: body });
  const data = { confirmed: false, blocked: false, ...input, email, provider: 'local' };
  try {
    return await createDocument(ctx.documents, ctx.userType, data, query, {
      locks: accountLocks([email]),
      check: refuseTaken,
    });
  } catch (error) {
    if (error instanceof ValidationError) throw new ApplicationError(error.message);
    throw error;
  }
}

/**
 * `PUT /api/users/:id`: changes the given fields. Unknown user → 404 `User not found`; then the
 * body's rules (errors in the order email, username, password, role); then an empty or null
 * password of a local account → `password.notNull`; username and email must stay unique.
 */
export async function updateUser(ctx: AuthContext, id: number | null, body: unknown, query: Query): Promise<Document> {
  const user = id === null ? null : await ctx.users.byId(id);
  if (!user) throw new NotFoundError('User not found');
  const checked = await validateBody(body, UPDATE_USER_BODY);
  if (user.provider === 'local' && 'password' in checked && !checked.password)
    throw new ValidationError('password.notNull');
  const username = typeof checked.username === 'string' ? checked.username : undefined;
  const email = typeof checked.email === 'string' ? checked.email.toLowerCase() : undefined;
  // Checked first, and again in the write, under the identifiers' locks.
  const refuseTaken = async (exec?: Executor) => {
    const byUsername = username === undefined ? null : await ctx.users.byUsername(username, exec);
    if (byUsername && byUsername.id !== user.id) throw new ApplicationError('Username already taken');
    const byEmail =
      email === undefined || !ctx.settings.advanced.unique_email ? null : await ctx.users.byEmail(email, exec);
    if (byEmail && byEmail.id !== user.id) throw new ApplicationError('Email already taken');
  };
  await refuseTaken();
  const input = sanitizeDataPayload(ctx.documents.schema, ctx.userType, { data: body });
  if (email !== undefined) input.email = email;
  const guard = { locks: accountLocks([username, email]), check: refuseTaken };
  const updated = await updateDocument(ctx.documents, ctx.userType, user.documentId, input, query, guard);
  if (!updated) throw new NotFoundError('User not found');
  return updated;
}

/** `DELETE /api/users/:id`: the deleted user (as it was), or null when there is none; its sessions end. */
export async function deleteUser(ctx: AuthContext, id: number | null, query: Query): Promise<Document | null> {
  const user = id === null ? null : await ctx.users.byId(id);
  if (!user) return null;
  const shown = await readUserDocument(ctx, user.id, query);
  await deleteDocument(ctx.documents, ctx.userType, user.documentId, query);
  await ctx.sessions.revoke(String(user.id));
  return shown;
}
