import { sanitizeDataPayload } from '../access/sanitize-input.js';
import { ApplicationError, NotFoundError, ValidationError } from '../core/errors.js';
import { createDocument, deleteDocument, updateDocument } from '../documents/write-documents.js';
import type { Query } from '../query/query-types.js';
import type { Document } from '../shape/shape-rows.js';
import { readUserDocument, type AuthContext } from './auth-context.js';
import { checkBody, checkPasswordLength } from './auth-body-rules.js';

/**
 * `POST /api/users` (body not wrapped in `data`): a local account; `email`, `username`,
 * `password` required; the default role when `role` is absent. Clashes answer Strapi's
 * `Username already taken` / `Email already taken`.
 */
export async function createUser(ctx: AuthContext, body: unknown, query: Query): Promise<Document> {
  const input = sanitizeDataPayload(ctx.documents.schema, ctx.userType, { data: body });
  const { email, username, password } = checkBody(input, [{ name: 'email', email: true }, { name: 'username' }, { name: 'password' }]) as Record<string, string>;
  checkPasswordLength(password as string);
  const lowerEmail = (email as string).toLowerCase();
  if ((await ctx.users.countClashes({ emails: [], usernames: [username as string] })) > 0) throw new ApplicationError('Username already taken');
  if (ctx.settings.advanced.unique_email && (await ctx.users.countClashes({ emails: [lowerEmail], usernames: [] })) > 0) {
    throw new ApplicationError('Email already taken');
  }
  let role = input.role;
  if (role === undefined || role === null) {
    role = await ctx.roles.idOfType(ctx.settings.advanced.default_role);
    if (role === null) throw new ApplicationError('Impossible to find the default role');
  }
  const data = { confirmed: false, blocked: false, ...input, email: lowerEmail, provider: 'local', role };
  return createDocument(ctx.documents, ctx.userType, data, query);
}

/**
 * `PUT /api/users/:id`: changes the given fields. Unknown user → 404 `User not found`; an empty
 * password is refused; username and email must stay unique.
 */
export async function updateUser(ctx: AuthContext, id: number | null, body: unknown, query: Query): Promise<Document> {
  const user = id === null ? null : await ctx.users.byId(id);
  if (!user) throw new NotFoundError('User not found');
  const input = sanitizeDataPayload(ctx.documents.schema, ctx.userType, { data: body });
  if ('password' in input) {
    if (typeof input.password !== 'string' || input.password === '') throw new ValidationError('password.notNull');
    checkPasswordLength(input.password);
  }
  if (typeof input.username === 'string') {
    const clash = await ctx.users.byUsername(input.username);
    if (clash && clash.id !== user.id) throw new ApplicationError('Username already taken');
  }
  if (typeof input.email === 'string') {
    const email = input.email.toLowerCase();
    input.email = email;
    const clash = ctx.settings.advanced.unique_email ? await ctx.users.byEmail(email) : null;
    if (clash && clash.id !== user.id) throw new ApplicationError('Email already taken');
  }
  const updated = await updateDocument(ctx.documents, ctx.userType, user.documentId, input, query);
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
