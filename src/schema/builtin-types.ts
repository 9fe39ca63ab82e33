import { UNSERVED_CONTENT_TYPES } from './builtin-unserved-types.js';
import type { RawContentType } from './raw-types.js';

/**
 * The content types Strapi's core and plugins define (API tokens, admin users, users & permissions,
 * upload, i18n), declared in the same schema format as a project's own so that one loader and one
 * DDL generator create their tables exactly as Strapi 5 lays them out. They are never exposed by
 * the generic content API routes.
 */
const hidden = { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } };

function builtin(uid: string, definition: RawContentType['definition']): RawContentType {
  return { uid, file: `<built-in ${uid}>`, origin: 'builtin', definition };
}

/** Every built-in content type, in a fixed order: the ones Cairn serves, then the unserved ones. */
export const BUILTIN_CONTENT_TYPES: readonly RawContentType[] = [
  builtin('admin::user', {
    kind: 'collectionType',
    collectionName: 'admin_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    pluginOptions: hidden,
    attributes: {
      firstname: { type: 'string', minLength: 1 },
      lastname: { type: 'string', minLength: 1 },
      username: { type: 'string' },
      email: { type: 'email', minLength: 6, private: true, unique: true, required: true },
      password: { type: 'password', minLength: 6, private: true, searchable: false },
      resetPasswordToken: { type: 'string', private: true, searchable: false },
      resetPasswordTokenExpiresAt: { type: 'datetime', private: true, searchable: false },
      registrationToken: { type: 'string', private: true, searchable: false },
      isActive: { type: 'boolean', default: false, private: true },
      roles: { type: 'relation', relation: 'manyToMany', inversedBy: 'users', target: 'admin::role', private: true },
      apiTokens: {
        type: 'relation',
        relation: 'oneToMany',
        mappedBy: 'adminUserOwner',
        target: 'admin::api-token',
        private: true,
      },
      blocked: { type: 'boolean', default: false, private: true },
      preferedLanguage: { type: 'string' },
    },
  }),
  builtin('admin::role', {
    kind: 'collectionType',
    collectionName: 'admin_roles',
    info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
    pluginOptions: hidden,
    attributes: {
      name: { type: 'string', minLength: 1, unique: true, required: true },
      code: { type: 'string', minLength: 1, unique: true, required: true },
      description: { type: 'string' },
      users: { type: 'relation', relation: 'manyToMany', mappedBy: 'roles', target: 'admin::user' },
      permissions: { type: 'relation', relation: 'oneToMany', mappedBy: 'role', target: 'admin::permission' },
    },
  }),
  builtin('admin::permission', {
    kind: 'collectionType',
    collectionName: 'admin_permissions',
    info: { singularName: 'permission', pluralName: 'permissions', displayName: 'Permission' },
    pluginOptions: hidden,
    attributes: {
      action: { type: 'string', minLength: 1, required: true },
      actionParameters: { type: 'json', default: {} },
      subject: { type: 'string', minLength: 1 },
      properties: { type: 'json', default: {} },
      conditions: { type: 'json', default: [] },
      role: { type: 'relation', relation: 'manyToOne', inversedBy: 'permissions', target: 'admin::role' },
      apiToken: { type: 'relation', relation: 'manyToOne', inversedBy: 'adminPermissions', target: 'admin::api-token' },
    },
  }),
  builtin('admin::api-token', {
    kind: 'collectionType',
    collectionName: 'strapi_api_tokens',
    info: { singularName: 'api-token', pluralName: 'api-tokens', displayName: 'Api Token' },
    pluginOptions: hidden,
    attributes: {
      name: { type: 'string', minLength: 1, required: true, unique: true },
      description: { type: 'string', minLength: 1, default: '' },
      kind: { type: 'enumeration', enum: ['content-api', 'admin'], required: true, default: 'content-api' },
      type: { type: 'enumeration', enum: ['read-only', 'full-access', 'custom'], default: 'read-only' },
      accessKey: { type: 'string', minLength: 1, required: true, searchable: false },
      encryptedKey: { type: 'text', minLength: 1, searchable: false },
      lastUsedAt: { type: 'datetime' },
      permissions: {
        type: 'relation',
        relation: 'oneToMany',
        mappedBy: 'token',
        target: 'admin::api-token-permission',
      },
      adminPermissions: { type: 'relation', relation: 'oneToMany', mappedBy: 'apiToken', target: 'admin::permission' },
      adminUserOwner: { type: 'relation', relation: 'manyToOne', inversedBy: 'apiTokens', target: 'admin::user' },
      expiresAt: { type: 'datetime' },
      lifespan: { type: 'biginteger' },
    },
  }),
  builtin('admin::api-token-permission', {
    kind: 'collectionType',
    collectionName: 'strapi_api_token_permissions',
    info: {
      singularName: 'api-token-permission',
      pluralName: 'api-token-permissions',
      displayName: 'API Token Permission',
    },
    pluginOptions: hidden,
    attributes: {
      action: { type: 'string', minLength: 1, required: true },
      token: { type: 'relation', relation: 'manyToOne', inversedBy: 'permissions', target: 'admin::api-token' },
    },
  }),
  builtin('admin::session', {
    kind: 'collectionType',
    collectionName: 'strapi_sessions',
    info: {
      singularName: 'session',
      pluralName: 'sessions',
      displayName: 'Session',
      description: 'Session Manager storage',
    },
    options: { draftAndPublish: false },
    pluginOptions: { ...hidden, i18n: { localized: false } },
    attributes: {
      userId: { type: 'string', required: true, private: true },
      sessionId: { type: 'string', unique: true, required: true, private: true },
      childId: { type: 'string', private: true },
      deviceId: { type: 'string', required: true, private: true },
      origin: { type: 'string', required: true, private: true },
      expiresAt: { type: 'datetime', required: true, private: true },
      absoluteExpiresAt: { type: 'datetime', private: true },
      status: { type: 'string', private: true },
      type: { type: 'string', private: true },
      metadata: { type: 'json', private: true, searchable: false },
    },
  }),
  builtin('plugin::users-permissions.permission', {
    kind: 'collectionType',
    collectionName: 'up_permissions',
    info: { singularName: 'permission', pluralName: 'permissions', displayName: 'Permission' },
    pluginOptions: hidden,
    attributes: {
      action: { type: 'string', required: true },
      role: {
        type: 'relation',
        relation: 'manyToOne',
        target: 'plugin::users-permissions.role',
        inversedBy: 'permissions',
      },
    },
  }),
  builtin('plugin::users-permissions.role', {
    kind: 'collectionType',
    collectionName: 'up_roles',
    info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
    pluginOptions: hidden,
    attributes: {
      name: { type: 'string', minLength: 3, required: true },
      description: { type: 'string' },
      type: { type: 'string', unique: true },
      permissions: {
        type: 'relation',
        relation: 'oneToMany',
        target: 'plugin::users-permissions.permission',
        mappedBy: 'role',
      },
      users: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.user', mappedBy: 'role' },
    },
  }),
  builtin('plugin::users-permissions.user', {
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    options: { draftAndPublish: false },
    attributes: {
      username: { type: 'string', minLength: 3, unique: true, required: true },
      email: { type: 'email', minLength: 6, required: true },
      provider: { type: 'string' },
      password: { type: 'password', minLength: 6, private: true, searchable: false },
      resetPasswordToken: { type: 'string', private: true, searchable: false },
      confirmationToken: { type: 'string', private: true, searchable: false },
      confirmed: { type: 'boolean', default: false },
      blocked: { type: 'boolean', default: false },
      role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users' },
    },
  }),
  builtin('plugin::upload.file', {
    kind: 'collectionType',
    collectionName: 'files',
    info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
    pluginOptions: hidden,
    indexes: ['folder_path', 'created_at', 'updated_at', 'name', 'size', 'ext'].map((column) => ({
      name: `upload_files_${column}_index`,
      columns: [column],
      type: null,
    })),
    attributes: {
      name: { type: 'string', required: true },
      alternativeText: { type: 'text' },
      caption: { type: 'text' },
      focalPoint: { type: 'json' },
      width: { type: 'integer' },
      height: { type: 'integer' },
      formats: { type: 'json' },
      hash: { type: 'string', required: true },
      ext: { type: 'string' },
      mime: { type: 'string', required: true },
      size: { type: 'decimal', required: true },
      url: { type: 'text', required: true },
      previewUrl: { type: 'text' },
      provider: { type: 'string', required: true },
      provider_metadata: { type: 'json' },
      related: { type: 'relation', relation: 'morphToMany' },
      folder: {
        type: 'relation',
        relation: 'manyToOne',
        target: 'plugin::upload.folder',
        inversedBy: 'files',
        private: true,
      },
      folderPath: { type: 'string', minLength: 1, required: true, private: true, searchable: false },
    },
  }),
  builtin('plugin::upload.folder', {
    kind: 'collectionType',
    collectionName: 'upload_folders',
    info: { singularName: 'folder', pluralName: 'folders', displayName: 'Folder' },
    pluginOptions: hidden,
    indexes: [
      { name: 'upload_folders_path_id_index', columns: ['path_id'], type: 'unique' },
      { name: 'upload_folders_path_index', columns: ['path'], type: 'unique' },
    ],
    attributes: {
      name: { type: 'string', minLength: 1, required: true },
      pathId: { type: 'integer', unique: true, required: true },
      parent: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'children' },
      children: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.folder', mappedBy: 'parent' },
      files: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.file', mappedBy: 'folder' },
      path: { type: 'string', minLength: 1, required: true },
    },
  }),
  builtin('plugin::i18n.locale', {
    kind: 'collectionType',
    collectionName: 'i18n_locale',
    info: { singularName: 'locale', pluralName: 'locales', displayName: 'Locale' },
    pluginOptions: hidden,
    attributes: {
      name: { type: 'string', min: 1, max: 50 },
      code: { type: 'string', unique: true },
    },
  }),
  ...UNSERVED_CONTENT_TYPES,
];
