import type { ContentType, Schema } from '../schema/types.js';

/** The content-API verbs of a content type, in Strapi's order. */
export function contentTypeActions(type: ContentType): string[] {
  const verbs =
    type.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete'];
  return verbs.map((verb) => `${type.uid}.${verb}`);
}

/** Actions of the plugins' content-API routes (upload, users & permissions, i18n). */
export const PLUGIN_ACTIONS: readonly string[] = [
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.findPage',
  'plugin::upload.content-api.findOne',
  'plugin::upload.content-api.destroy',
  'plugin::upload.content-api.upload',
  'plugin::users-permissions.auth.callback',
  'plugin::users-permissions.auth.connect',
  'plugin::users-permissions.auth.forgotPassword',
  'plugin::users-permissions.auth.resetPassword',
  'plugin::users-permissions.auth.register',
  'plugin::users-permissions.auth.emailConfirmation',
  'plugin::users-permissions.auth.sendEmailConfirmation',
  'plugin::users-permissions.auth.changePassword',
  'plugin::users-permissions.auth.refresh',
  'plugin::users-permissions.auth.logout',
  'plugin::users-permissions.auth.getSessions',
  'plugin::users-permissions.auth.revokeSession',
  'plugin::users-permissions.user.me',
  'plugin::users-permissions.user.find',
  'plugin::users-permissions.user.findOne',
  'plugin::users-permissions.user.count',
  'plugin::users-permissions.user.create',
  'plugin::users-permissions.user.update',
  'plugin::users-permissions.user.destroy',
  'plugin::users-permissions.role.find',
  'plugin::users-permissions.role.findOne',
  'plugin::users-permissions.role.createRole',
  'plugin::users-permissions.role.updateRole',
  'plugin::users-permissions.role.deleteRole',
  'plugin::users-permissions.permissions.getPermissions',
  'plugin::i18n.locales.listLocales',
];

/** Every action a permission or a custom API token may name. */
export function knownActions(schema: Schema): Set<string> {
  const actions = new Set(PLUGIN_ACTIONS);
  for (const type of schema.contentTypes.values()) {
    if (type.origin === 'api') for (const action of contentTypeActions(type)) actions.add(action);
  }
  for (const action of schema.routeActions ?? []) actions.add(action);
  for (const action of schema.removedActions ?? []) actions.delete(action);
  return actions;
}

/** Read-only API tokens may use exactly the `find` and `findOne` actions. */
export function isReadAction(action: string): boolean {
  return action.endsWith('.find') || action.endsWith('.findOne');
}
