import type { Schema } from '../schema/types.js';
import { DEFAULT_ROLE_ACTIONS, type RolePermissions } from './role-permissions.js';

/**
 * One start-up line when the Public role holds nothing beyond the plugin's own defaults (login,
 * register…): every content request without credentials then answers 403. Strapi projects often
 * grant those permissions from bootstrap code (`src/index.js`), which Cairn does not run, so the
 * line points at `config/permissions.js`. No line when Public holds something, or when
 * `config/permissions` lists Public on purpose (`configured`). The example names a collection
 * type's find and findOne when the project has one (a single type has no findOne route).
 */
export function publicRoleNotice(
  roles: RolePermissions,
  configured: ReadonlyMap<string, readonly string[]>,
  schema: Schema,
): string[] {
  if (configured.has('public')) return [];
  const defaults = new Set(DEFAULT_ROLE_ACTIONS.public);
  const granted = [...(roles.byType.get('public') ?? [])].filter((action) => !defaults.has(action));
  if (granted.length > 0) return [];
  const own = [...schema.contentTypes.values()].filter((type) => type.origin === 'api');
  const example = own.find((type) => type.kind === 'collectionType') ?? own[0];
  // A single type has no findOne route: its example is its find action alone.
  const actions =
    example === undefined
      ? ['api::article.article.find', 'api::article.article.findOne']
      : example.kind === 'singleType'
        ? [`${example.uid}.find`]
        : [`${example.uid}.find`, `${example.uid}.findOne`];
  return [
    'the Public role holds no permission, so requests without a token or login answer 403; Strapi projects often grant them in ' +
      `bootstrap code (src/index.js), which Cairn does not run: list them in config/permissions.js, e.g. module.exports = { public: [${actions.map((action) => `'${action}'`).join(', ')}] }`,
  ];
}
