import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLNullableType,
  type GraphQLOutputType,
} from 'graphql';
import { ProjectError } from '../core/errors.js';
import type { ContentType } from '../schema/types.js';
import type { PluginOperation } from './graphql-resolvers.js';
import type { GraphqlTypeKit } from './graphql-type-kit.js';

/**
 * The root fields and types the users-permissions and upload plugins add (with shadow CRUD on):
 * `me`, the authentication mutations, their own role and user mutations (replacing the generated
 * ones), `updateUploadFile` and `deleteUploadFile`. Each field gets `resolvers.root({ kind: name })`.
 */

const nonNull = <T extends GraphQLNullableType>(type: T): GraphQLNonNull<T> => new GraphQLNonNull(type);
const requiredString = { type: new GraphQLNonNull(GraphQLString) };
const requiredId = { type: new GraphQLNonNull(GraphQLID) };

const MeRoleType = new GraphQLObjectType({
  name: 'UsersPermissionsMeRole',
  fields: {
    id: { type: nonNull(GraphQLID) },
    name: requiredString,
    description: { type: GraphQLString },
    type: { type: GraphQLString },
  },
});

const MeType = new GraphQLObjectType({
  name: 'UsersPermissionsMe',
  fields: {
    id: { type: nonNull(GraphQLID) },
    documentId: { type: nonNull(GraphQLID) },
    username: requiredString,
    email: { type: GraphQLString },
    confirmed: { type: GraphQLBoolean },
    blocked: { type: GraphQLBoolean },
    role: { type: MeRoleType },
  },
});

const LoginPayloadType = new GraphQLObjectType({
  name: 'UsersPermissionsLoginPayload',
  fields: { jwt: { type: GraphQLString }, user: { type: nonNull(MeType) } },
});

const okPayload = (name: string) => new GraphQLObjectType({ name, fields: { ok: { type: nonNull(GraphQLBoolean) } } });
const PasswordPayloadType = okPayload('UsersPermissionsPasswordPayload');
const CreateRolePayloadType = okPayload('UsersPermissionsCreateRolePayload');
const UpdateRolePayloadType = okPayload('UsersPermissionsUpdateRolePayload');
const DeleteRolePayloadType = okPayload('UsersPermissionsDeleteRolePayload');

const LoginInput = new GraphQLInputObjectType({
  name: 'UsersPermissionsLoginInput',
  fields: {
    identifier: requiredString,
    password: requiredString,
    provider: { ...requiredString, defaultValue: 'local' },
  },
});

const RegisterInput = new GraphQLInputObjectType({
  name: 'UsersPermissionsRegisterInput',
  fields: { username: requiredString, email: requiredString, password: requiredString },
});

const FileInfoInput = new GraphQLInputObjectType({
  name: 'FileInfoInput',
  fields: { name: { type: GraphQLString }, alternativeText: { type: GraphQLString }, caption: { type: GraphQLString } },
});

const passwordArgs = { password: requiredString, passwordConfirmation: requiredString };

/** `me: UsersPermissionsMe`. */
export function pluginQueryFields<TContext>(kit: GraphqlTypeKit<TContext>): GraphQLFieldConfigMap<unknown, TContext> {
  return { me: { type: MeType, resolve: kit.resolvers.root({ kind: 'me' }) } };
}

/** The users-permissions and upload mutations. */
export function pluginMutationFields<TContext>(
  kit: GraphqlTypeKit<TContext>,
): GraphQLFieldConfigMap<unknown, TContext> {
  const user = builtin(kit, 'plugin::users-permissions.user');
  const role = builtin(kit, 'plugin::users-permissions.role');
  const file = kit.objectType(builtin(kit, 'plugin::upload.file'));
  const userResponse = new GraphQLObjectType({
    name: 'UsersPermissionsUserEntityResponse',
    fields: () => ({ data: { type: kit.objectType(user) } }),
  });
  const userData = { type: nonNull(kit.inputType(user)) };
  const roleData = { type: nonNull(kit.inputType(role)) };
  const field = (
    kind: PluginOperation,
    type: GraphQLOutputType,
    args: GraphQLFieldConfigArgumentMap,
    description?: string,
  ) => [kind, { type, args, resolve: kit.resolvers.root({ kind }), ...(description ? { description } : {}) }] as const;
  return Object.fromEntries([
    field('login', nonNull(LoginPayloadType), { input: { type: nonNull(LoginInput) } }),
    field('register', nonNull(LoginPayloadType), { input: { type: nonNull(RegisterInput) } }, 'Register a user'),
    field('forgotPassword', PasswordPayloadType, { email: requiredString }, 'Request a reset password token'),
    field(
      'resetPassword',
      LoginPayloadType,
      { code: requiredString, ...passwordArgs },
      'Reset user password. Confirm with a code (resetToken from forgotPassword)',
    ),
    field(
      'changePassword',
      LoginPayloadType,
      { currentPassword: requiredString, ...passwordArgs },
      'Change user password. Confirm with the current password.',
    ),
    field(
      'emailConfirmation',
      LoginPayloadType,
      { confirmation: requiredString },
      'Confirm an email users email address',
    ),
    field('createUsersPermissionsRole', CreateRolePayloadType, { data: roleData }, 'Create a new role'),
    field(
      'updateUsersPermissionsRole',
      UpdateRolePayloadType,
      { id: requiredId, data: roleData },
      'Update an existing role',
    ),
    field('deleteUsersPermissionsRole', DeleteRolePayloadType, { id: requiredId }, 'Delete an existing role'),
    field('createUsersPermissionsUser', nonNull(userResponse), { data: userData }, 'Create a new user'),
    field(
      'updateUsersPermissionsUser',
      nonNull(userResponse),
      { id: requiredId, data: userData },
      'Update an existing user',
    ),
    field('deleteUsersPermissionsUser', nonNull(userResponse), { id: requiredId }, 'Delete an existing user'),
    field('updateUploadFile', nonNull(file), { id: requiredId, info: { type: FileInfoInput } }),
    field('deleteUploadFile', file, { id: requiredId }),
  ]);
}

/** A built-in content type the plugins' fields are made from (always part of Cairn's model). */
function builtin<TContext>(kit: GraphqlTypeKit<TContext>, uid: string): ContentType {
  const type = kit.schema.contentTypes.get(uid);
  if (!type)
    throw new ProjectError(`The content model lacks the built-in content type ${uid} the GraphQL schema needs`);
  return type;
}
