/**
 * What Strapi 5.54's own definitions of its built-in content types carry beyond the ones Cairn
 * declares in schema/builtin-types.ts (which hold what the tables need): `configurable: false`
 * on the attributes, explicit `required: false` / `unique: false` / `searchable: false`, the
 * `info.name` and `info.description` keys, raw `options`, and `config.attributes.<name>.hidden`.
 * The content manager echoes the definitions (`/content-manager/init`) and derives layouts from
 * them, so these are overlaid on Cairn's definitions. Read from Strapi 5.54's
 * `content-types/*\/schema` files (admin, upload, i18n, users-permissions, content-releases,
 * review-workflows) and checked against a recorded `/admin/guided-tour-meta` answer.
 */
export interface BuiltinExtras {
  /** Keys added to `info`. */
  readonly info?: Readonly<Record<string, unknown>>;
  /** The raw `options` Strapi declares (replaces Cairn's); absent: Cairn's are Strapi's. */
  readonly options?: Readonly<Record<string, unknown>> | null;
  /** Every declared attribute is `configurable: false`, but those listed in `configurable`. */
  readonly fixed?: boolean;
  readonly configurable?: readonly string[];
  /** Extra keys per attribute. */
  readonly attributes?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Attributes hidden from the content manager's views (`config.attributes.<name>.hidden`). */
  readonly hidden?: readonly string[];
}

const notRequired = { required: false } as const;
const notSearchable = { searchable: false } as const;

/** Each of `names` gets `extra`. */
function each(
  names: readonly string[],
  extra: Readonly<Record<string, unknown>>,
): Record<string, Readonly<Record<string, unknown>>> {
  return Object.fromEntries(names.map((name) => [name, extra]));
}

/** Strapi's additions, by built-in uid. */
export const BUILTIN_EXTRAS: Readonly<Record<string, BuiltinExtras>> = {
  'admin::user': {
    info: { name: 'User', description: '' },
    options: null,
    fixed: true,
    attributes: {
      ...each(['firstname', 'lastname', 'username'], { required: false, unique: false }),
      password: notRequired,
      preferedLanguage: { required: false, searchable: false },
      roles: { collectionName: 'strapi_users_roles' },
    },
    hidden: ['resetPasswordToken', 'registrationToken'],
  },
  'admin::role': { info: { name: 'Role', description: '' }, options: {}, fixed: true },
  'admin::permission': {
    info: { name: 'Permission', description: '' },
    options: {},
    fixed: true,
    attributes: each(['actionParameters', 'subject', 'properties', 'conditions', 'role', 'apiToken'], notRequired),
  },
  'admin::api-token': {
    info: { name: 'Api Token', description: '' },
    options: {},
    fixed: true,
    attributes: each(
      [
        'description',
        'type',
        'encryptedKey',
        'lastUsedAt',
        'permissions',
        'adminPermissions',
        'adminUserOwner',
        'expiresAt',
        'lifespan',
      ],
      notRequired,
    ),
  },
  'admin::api-token-permission': { info: { name: 'API Token Permission', description: '' }, options: {}, fixed: true },
  'admin::session': {
    info: { name: 'Session' },
    fixed: true,
    attributes: each(
      ['userId', 'sessionId', 'childId', 'deviceId', 'origin', 'expiresAt', 'absoluteExpiresAt', 'status', 'type'],
      notSearchable,
    ),
  },
  'admin::transfer-token': {
    info: { name: 'Transfer Token', description: '' },
    options: {},
    fixed: true,
    attributes: each(['description', 'lastUsedAt', 'permissions', 'expiresAt', 'lifespan'], notRequired),
  },
  'admin::transfer-token-permission': {
    info: { name: 'Transfer Token Permission', description: '' },
    options: {},
    fixed: true,
  },
  'plugin::users-permissions.permission': { info: { name: 'permission', description: '' }, options: null, fixed: true },
  'plugin::users-permissions.role': { info: { name: 'role', description: '' }, options: null, fixed: true },
  'plugin::users-permissions.user': {
    info: { name: 'user', description: '' },
    options: { timestamps: true },
    fixed: true,
    hidden: ['resetPasswordToken', 'confirmationToken', 'provider'],
  },
  'plugin::upload.file': {
    info: { description: '' },
    options: {},
    fixed: true,
    configurable: ['folder', 'folderPath'],
  },
  'plugin::upload.folder': { options: {} },
  'plugin::i18n.locale': { info: { collectionName: 'locales', description: '' }, options: {}, fixed: true },
  'plugin::review-workflows.workflow': {
    info: { name: 'Workflow', description: '' },
    options: {},
    attributes: { stageRequiredToPublish: notRequired },
  },
  'plugin::review-workflows.workflow-stage': {
    info: { name: 'Workflow Stage', description: '' },
    options: { version: '1.1.0' },
    fixed: true,
  },
};
