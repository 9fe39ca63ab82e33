import type { GraphQLFieldResolver } from 'graphql';
import type { Config } from '../config/config.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { UploadContext } from '../upload/upload-service.js';
import { deleteFile, updateFileInfo } from '../upload/upload-service.js';
import { readUserDocument, userQuery, type AuthContext } from '../users-permissions/auth-context.js';
import { issueTokens } from '../users-permissions/auth-tokens.js';
import { confirmEmail } from '../users-permissions/confirmation-flows.js';
import { login, register } from '../users-permissions/login-flows.js';
import { changePassword, forgotPassword, resetPassword } from '../users-permissions/password-flows.js';
import { createRole, deleteRole, updateRole, type RoleAdminContext } from '../users-permissions/role-admin.js';
import { createUser, deleteUser, updateUser } from '../users-permissions/user-admin.js';
import type { Document } from '../shape/shape-rows.js';
import type { CountMutation } from './auth-rate-limit.js';
import type { GraphqlContext } from './graphql-context.js';
import type { PluginOperation } from './graphql-resolvers.js';

/** What the users-permissions and upload plugins' fields run on: the same flows as their REST routes. */
export interface PluginResolverDeps {
  readonly config: Config;
  readonly auth: AuthContext;
  readonly roles: RoleAdminContext;
  /** Reloads the role permissions every check reads, after a role changed. */
  readonly reloadRoles: () => Promise<void>;
  readonly upload: UploadContext;
  /** A file as the API shows it, or null when there is none. */
  readonly readFile: (id: number) => Promise<Document | null>;
  /** Counts a call of an auth mutation against the auth rate limit (auth-rate-limit.ts). */
  readonly countMutation: CountMutation;
}

type Args = Readonly<Record<string, unknown>>;
type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, Args>;

const UP = 'plugin::users-permissions';

/**
 * The resolvers of `me`, `login`, `register`, the password and confirmation mutations, the
 * users and roles mutations, and `updateUploadFile`/`deleteUploadFile`. Each calls the flow its
 * REST route calls, behind the same permission action (login and register are open to all, as in
 * the plugin), so both APIs validate, answer errors and write alike.
 */
export function pluginRootResolver(deps: PluginResolverDeps, operation: PluginOperation): Resolver {
  const { auth, config } = deps;
  /** The user as `UsersPermissionsMe` shows it: with the role. */
  const withRole = () => userQuery(auth, config, { populate: ['role'] });
  const userId = (context: GraphqlContext): number => {
    if (context.principal.kind !== 'user') throw new ValidationError('You must be authenticated to do this');
    return context.principal.user.id;
  };
  const idOf = (args: Args): number | null => {
    const id = Number(args.id);
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  };
  const roleChange =
    (work: (args: Args) => Promise<void>, action: string): Resolver =>
    async (_s, args, context) => {
      context.require(`${UP}.role.${action}`);
      await work(args);
      await deps.reloadRoles();
      return { ok: true };
    };
  const resolvers: Record<PluginOperation, Resolver> = {
    me: async (_s, _args, context) => {
      context.require(`${UP}.user.me`);
      return readUserDocument(auth, userId(context), withRole());
    },
    login: async (_s, args, context) => {
      await deps.countMutation('login', context, args.input);
      return (await login(auth, args.input, false, withRole())).body;
    },
    register: async (_s, args, context) => {
      await deps.countMutation('register', context, args.input);
      return (await register(auth, args.input, withRole())).body;
    },
    forgotPassword: async (_s, args, context) => {
      await deps.countMutation('forgotPassword', context, { email: args.email });
      await forgotPassword(auth, { email: args.email });
      return { ok: true };
    },
    resetPassword: async (_s, args, context) => {
      await deps.countMutation('resetPassword', context, args);
      return (await resetPassword(auth, { ...args }, withRole())).body;
    },
    changePassword: async (_s, args, context) => {
      context.require(`${UP}.auth.changePassword`);
      await deps.countMutation('changePassword', context, args);
      return (await changePassword(auth, userId(context), { ...args }, withRole())).body;
    },
    emailConfirmation: async (_s, args) => {
      const confirmation = typeof args.confirmation === 'string' ? args.confirmation : '';
      const user = confirmation ? await auth.users.byToken('confirmation_token', confirmation) : null;
      await confirmEmail(auth, { confirmation });
      if (!user) return null;
      // Signed in, as the plugin's emailConfirmation answers: a JWT and the user.
      const tokens = await issueTokens(auth, user.id, { cookieRequested: false, deviceId: undefined });
      return { ...tokens.body, user: await readUserDocument(auth, user.id, withRole()) };
    },
    createUsersPermissionsRole: roleChange((args) => createRole(deps.roles, args.data), 'createRole'),
    updateUsersPermissionsRole: roleChange((args) => updateRole(deps.roles, idOf(args), args.data), 'updateRole'),
    deleteUsersPermissionsRole: roleChange((args) => deleteRole(deps.roles, idOf(args)), 'deleteRole'),
    createUsersPermissionsUser: async (_s, args, context) => {
      context.require(`${UP}.user.create`);
      return { data: await createUser(auth, args.data, withRole()) };
    },
    updateUsersPermissionsUser: async (_s, args, context) => {
      context.require(`${UP}.user.update`);
      return { data: await updateUser(auth, idOf(args), args.data, withRole()) };
    },
    deleteUsersPermissionsUser: async (_s, args, context) => {
      context.require(`${UP}.user.destroy`);
      const deleted = await deleteUser(auth, idOf(args), withRole());
      if (!deleted) throw new NotFoundError('User not found');
      return { data: deleted };
    },
    updateUploadFile: async (_s, args, context) => {
      context.require('plugin::upload.content-api.upload');
      const id = idOf(args);
      if (id === null) throw new NotFoundError('File not found');
      const info = (args.info ?? {}) as Record<string, unknown>;
      await updateFileInfo(deps.upload, id, {
        ...(typeof info.name === 'string' && { name: info.name }),
        ...(info.alternativeText !== undefined && { alternativeText: info.alternativeText as string | null }),
        ...(info.caption !== undefined && { caption: info.caption as string | null }),
      });
      return deps.readFile(id);
    },
    deleteUploadFile: async (_s, args, context) => {
      context.require('plugin::upload.content-api.destroy');
      const id = idOf(args);
      const file = id === null ? null : await deps.readFile(id);
      if (id === null || !file || !(await deleteFile(deps.upload, id, file))) return null;
      return file;
    },
  };
  return resolvers[operation];
}
