import type { AdminConditions } from '../access/admin-conditions.js';
import type { LocaleEntry } from '../i18n/locales.js';
import type { Attribute, ContentType, Schema } from '../schema/types.js';
import { PLAIN_ADMIN_ACTIONS } from './admin-action-table.js';
import { registrationOrder, shownInContentManager } from './admin-permission-catalog.js';

/** The content manager's actions on documents, with the properties a permission of each may restrict. */
const CONTENT_ACTIONS = [
  { label: 'Create', actionId: 'plugin::content-manager.explorer.create', applyToProperties: ['fields', 'locales'] },
  { label: 'Read', actionId: 'plugin::content-manager.explorer.read', applyToProperties: ['fields', 'locales'] },
  { label: 'Update', actionId: 'plugin::content-manager.explorer.update', applyToProperties: ['fields', 'locales'] },
  { label: 'Delete', actionId: 'plugin::content-manager.explorer.delete', applyToProperties: ['locales'] },
  { label: 'Publish', actionId: 'plugin::content-manager.explorer.publish', applyToProperties: ['locales'] },
] as const;

/** What a role's permission for one action may hold: its subjects (null: none) and restrictable properties. */
export interface ActionRule {
  readonly subjects: readonly string[] | null;
  readonly applyToProperties: readonly string[];
}

/**
 * Every action a role may be granted, by id: the subject-less ones, and the content manager's,
 * whose subjects are the types the content manager shows (`read`: every type, as the Super
 * Admin holds it, so relations to any type can be read).
 */
export function adminActionRules(schema: Schema): ReadonlyMap<string, ActionRule> {
  const ordered = registrationOrder(schema);
  const shown = ordered.filter(shownInContentManager).map((type) => type.uid);
  const rules = new Map<string, ActionRule>();
  for (const action of CONTENT_ACTIONS)
    rules.set(action.actionId, {
      subjects: action.label === 'Read' ? ordered.map((type) => type.uid) : shown,
      applyToProperties: action.applyToProperties,
    });
  for (const action of PLAIN_ADMIN_ACTIONS) rules.set(action.action, { subjects: null, applyToProperties: [] });
  return rules;
}

/** One node of a subject's `fields` tree in the Roles screen. */
interface FieldNode {
  readonly label: string;
  readonly value: string;
  readonly required?: true;
  readonly children?: readonly FieldNode[];
}

function fieldTree(schema: Schema, attributes: ReadonlyMap<string, Attribute>, depth = 0): FieldNode[] {
  const nodes: FieldNode[] = [];
  for (const attribute of attributes.values()) {
    if (attribute.system) continue;
    const node = {
      label: attribute.name,
      value: attribute.name,
      ...(attribute.required ? { required: true as const } : {}),
    };
    const component = attribute.type === 'component' ? schema.components.get(attribute.component) : undefined;
    // Components nest as deep as the model does; the bound only stops a self-referencing model.
    nodes.push(
      component && depth < 20 ? { ...node, children: fieldTree(schema, component.attributes, depth + 1) } : node,
    );
  }
  return nodes;
}

function subjectOf(schema: Schema, type: ContentType, locales: readonly LocaleEntry[]) {
  return {
    uid: type.uid,
    label: type.singularName,
    properties: [
      { label: 'Fields', value: 'fields', children: fieldTree(schema, type.attributes) },
      ...(type.localized
        ? [
            {
              label: 'Locales',
              value: 'locales',
              children: locales.map((locale) => ({
                label: locale.name,
                value: locale.code,
                isDefault: locale.isDefault,
              })),
            },
          ]
        : []),
    ],
  };
}

/**
 * `GET /admin/permissions`: every action a role can be given, in the sections of Strapi's Roles
 * screen — `plugins` and `settings` (subject-less actions), `singleTypes` and `collectionTypes`
 * (the content manager's actions, and the types they apply to with their fields tree and, for
 * localized types, locales) — and the conditions a permission may carry (Strapi's and the
 * project's, in registration order, as `{ id, displayName, category }`).
 */
export function adminPermissionCatalog(schema: Schema, locales: readonly LocaleEntry[], conditions: AdminConditions) {
  const shown = registrationOrder(schema).filter(shownInContentManager);
  const actions = CONTENT_ACTIONS.map(({ label, actionId, applyToProperties }) => ({
    label,
    actionId,
    subjects: shown.map((type) => type.uid),
    applyToProperties: [...applyToProperties],
  }));
  const ofKind = (kind: ContentType['kind']) => ({
    actions,
    subjects: shown.filter((type) => type.kind === kind).map((type) => subjectOf(schema, type, locales)),
  });
  return {
    conditions: conditions.list().map(({ id, displayName, category }) => ({ id, displayName, category })),
    sections: {
      plugins: PLAIN_ADMIN_ACTIONS.filter((entry) => entry.section === 'plugins').map((entry) => ({
        displayName: entry.displayName,
        plugin: entry.group,
        subCategory: entry.subCategory,
        action: entry.action,
      })),
      settings: PLAIN_ADMIN_ACTIONS.filter((entry) => entry.section === 'settings').map((entry) => ({
        displayName: entry.displayName,
        category: entry.group,
        subCategory: entry.subCategory,
        action: entry.action,
      })),
      singleTypes: ofKind('singleType'),
      collectionTypes: ofKind('collectionType'),
    },
  };
}
