import type { RawContentType } from './raw-types.js';

/**
 * Content types of Strapi 5.54's admin and bundled plugins that Cairn does not serve (transfer
 * tokens, content releases, review workflows). Cairn only creates their tables, attribute for
 * attribute as Strapi declares them, so that Strapi (its admin panel, or a team going back to it)
 * finds the layout it expects and its schema hash matches (see strapi-schema.ts). Like the other
 * built-ins they are never exposed by the content API routes.
 */
const hidden = { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } };

function unserved(uid: string, definition: RawContentType['definition']): RawContentType {
  return { uid, file: `<built-in ${uid}>`, origin: 'builtin', definition };
}

/** In Strapi's registry order. */
export const UNSERVED_CONTENT_TYPES: readonly RawContentType[] = [
  unserved('plugin::content-releases.release', {
    kind: 'collectionType',
    collectionName: 'strapi_releases',
    info: { singularName: 'release', pluralName: 'releases', displayName: 'Release' },
    options: { draftAndPublish: false },
    pluginOptions: hidden,
    attributes: {
      name: { type: 'string', required: true },
      releasedAt: { type: 'datetime' },
      scheduledAt: { type: 'datetime' },
      timezone: { type: 'string' },
      status: { type: 'enumeration', enum: ['ready', 'blocked', 'failed', 'done', 'empty'], required: true },
      actions: {
        type: 'relation',
        relation: 'oneToMany',
        target: 'plugin::content-releases.release-action',
        mappedBy: 'release',
      },
    },
  }),
  unserved('plugin::content-releases.release-action', {
    kind: 'collectionType',
    collectionName: 'strapi_release_actions',
    info: { singularName: 'release-action', pluralName: 'release-actions', displayName: 'Release Action' },
    options: { draftAndPublish: false },
    pluginOptions: hidden,
    attributes: {
      type: { type: 'enumeration', enum: ['publish', 'unpublish'], required: true },
      contentType: { type: 'string', required: true },
      entryDocumentId: { type: 'string' },
      // Declared by the type itself: the `locale` column sits here, not after the timestamps.
      locale: { type: 'string' },
      release: {
        type: 'relation',
        relation: 'manyToOne',
        target: 'plugin::content-releases.release',
        inversedBy: 'actions',
      },
      isEntryValid: { type: 'boolean' },
    },
  }),
  unserved('plugin::review-workflows.workflow', {
    kind: 'collectionType',
    collectionName: 'strapi_workflows',
    info: { singularName: 'workflow', pluralName: 'workflows', displayName: 'Workflow' },
    pluginOptions: hidden,
    attributes: {
      name: { type: 'string', required: true, unique: true },
      stages: {
        type: 'relation',
        target: 'plugin::review-workflows.workflow-stage',
        relation: 'oneToMany',
        mappedBy: 'workflow',
      },
      stageRequiredToPublish: {
        type: 'relation',
        target: 'plugin::review-workflows.workflow-stage',
        relation: 'oneToOne',
      },
      contentTypes: { type: 'json', required: true, default: '[]' },
    },
  }),
  unserved('plugin::review-workflows.workflow-stage', {
    kind: 'collectionType',
    collectionName: 'strapi_workflows_stages',
    info: { singularName: 'workflow-stage', pluralName: 'workflow-stages', displayName: 'Stages' },
    pluginOptions: hidden,
    attributes: {
      name: { type: 'string' },
      color: { type: 'string', default: '#4945FF' },
      workflow: {
        type: 'relation',
        target: 'plugin::review-workflows.workflow',
        relation: 'manyToOne',
        inversedBy: 'stages',
      },
      permissions: { type: 'relation', target: 'admin::permission', relation: 'manyToMany' },
    },
  }),
  unserved('admin::transfer-token', {
    kind: 'collectionType',
    collectionName: 'strapi_transfer_tokens',
    info: { singularName: 'transfer-token', pluralName: 'transfer-tokens', displayName: 'Transfer Token' },
    pluginOptions: hidden,
    attributes: {
      name: { type: 'string', minLength: 1, required: true, unique: true },
      description: { type: 'string', minLength: 1, default: '' },
      accessKey: { type: 'string', minLength: 1, required: true },
      lastUsedAt: { type: 'datetime' },
      permissions: {
        type: 'relation',
        target: 'admin::transfer-token-permission',
        relation: 'oneToMany',
        mappedBy: 'token',
      },
      expiresAt: { type: 'datetime' },
      lifespan: { type: 'biginteger' },
    },
  }),
  unserved('admin::transfer-token-permission', {
    kind: 'collectionType',
    collectionName: 'strapi_transfer_token_permissions',
    info: {
      singularName: 'transfer-token-permission',
      pluralName: 'transfer-token-permissions',
      displayName: 'Transfer Token Permission',
    },
    pluginOptions: hidden,
    attributes: {
      action: { type: 'string', minLength: 1, required: true },
      token: { type: 'relation', relation: 'manyToOne', inversedBy: 'permissions', target: 'admin::transfer-token' },
    },
  }),
];
