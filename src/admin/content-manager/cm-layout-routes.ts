import { ForbiddenError, NotFoundError } from '../../core/errors.js';
import type { Database } from '../../db/database.js';
import type { Schema } from '../../schema/types.js';
import { ok, type AdminRoute } from '../admin-route.js';
import { FIELD_SIZES } from './cm-attributes.js';
import { parseConfigurationInput } from './cm-configuration-input.js';
import {
  syncContentManagerConfigurations,
  type ContentManagerConfigurations,
  type StoredConfiguration,
} from './cm-configuration-store.js';
import { contentManagerDto, type CmModel } from './cm-schemas.js';
import type { ModelDefinitions } from './cm-strapi-models.js';

/** What the content manager's schema and layout routes need. */
export interface ContentManagerLayoutDeps {
  readonly schema: Schema;
  readonly db: Database;
  readonly now: () => Date;
  /** The project's model files (`readModelFiles(project.dir)`): `/init` then echoes them exactly. */
  readonly definitions?: ModelDefinitions;
  /** The configurations `syncContentManagerConfigurations` returned at start; else synced at the first request. */
  readonly configurations?: ContentManagerConfigurations;
}

type Metadatas = Readonly<
  Record<string, { readonly edit?: Readonly<Record<string, unknown>>; readonly list?: unknown }>
>;

/** `id` and `documentId` are always listed as searchable and sortable. */
const DOCUMENT_ID_METADATA = { edit: {}, list: { label: 'documentId', searchable: true, sortable: true } };

/**
 * The content manager's schema and view-configuration routes (all for a signed-in admin):
 *
 *   GET /content-manager/init                                 { contentTypes, components, fieldSizes }
 *   GET /content-manager/content-types[?kind=]                the content types' descriptions
 *   GET /content-manager/components                           the components' descriptions
 *   GET /content-manager/content-types-settings               [{ uid, settings }]
 *   GET|PUT /content-manager/content-types/:uid/configuration { contentType, components }
 *   GET|PUT /content-manager/components/:uid/configuration    { component, components } (PUT: the component's)
 *
 * An unknown uid answers 404 (`contentType.notFound`, `component.notFound`); an invalid body 400.
 */
export function contentManagerLayoutRoutes(deps: ContentManagerLayoutDeps): AdminRoute[] {
  let synced: Promise<ContentManagerConfigurations> | undefined = deps.configurations
    ? Promise.resolve(deps.configurations)
    : undefined;
  const load = () => {
    synced ??= syncContentManagerConfigurations(deps.db, deps.schema, deps.now, deps.definitions).catch(
      (error: unknown) => {
        synced = undefined;
        throw error;
      },
    );
    return synced;
  };

  const contentType = (store: ContentManagerConfigurations, uid: string | undefined): CmModel => {
    const model = uid === undefined ? undefined : store.schemas.contentTypes.get(uid);
    if (!model) throw new NotFoundError('contentType.notFound');
    return model;
  };
  const component = (store: ContentManagerConfigurations, uid: string | undefined): CmModel => {
    const model = uid === undefined ? undefined : store.schemas.components.get(uid);
    if (!model) throw new NotFoundError('component.notFound');
    return model;
  };
  const componentData = (store: ContentManagerConfigurations, model: CmModel) => ({
    uid: model.uid,
    category: model.category,
    ...withEmptyParts(store.get(model.uid)),
  });
  /** The configurations of the components `model` uses, directly or through other components. */
  const componentsOf = (store: ContentManagerConfigurations, model: CmModel) => {
    const found: Record<string, unknown> = {};
    const visit = (current: CmModel) => {
      for (const attribute of Object.values(current.attributes)) {
        const uids =
          attribute.type === 'component'
            ? [attribute.component]
            : attribute.type === 'dynamiczone'
              ? attribute.components
              : [];
        for (const uid of Array.isArray(uids) ? uids : []) {
          const used = typeof uid === 'string' ? store.schemas.components.get(uid) : undefined;
          if (!used || used.uid in found) continue;
          found[used.uid] = componentData(store, used);
          visit(used);
        }
      }
    };
    visit(model);
    return found;
  };

  return [
    {
      method: 'GET',
      path: '/content-manager/init',
      auth: 'admin',
      handle: async () => {
        const { schemas } = await load();
        return ok({
          contentTypes: [...schemas.contentTypes.values()].map(contentManagerDto),
          components: [...schemas.components.values()].map(contentManagerDto),
          fieldSizes: FIELD_SIZES,
        });
      },
    },
    {
      method: 'GET',
      path: '/content-manager/content-types',
      auth: 'admin',
      handle: async (request) => {
        const { schemas } = await load();
        const kind = request.query.kind;
        const types = [...schemas.contentTypes.values()].filter(
          (type) => typeof kind !== 'string' || type.kind === kind,
        );
        return ok(types.map(contentManagerDto));
      },
    },
    {
      method: 'GET',
      path: '/content-manager/components',
      auth: 'admin',
      handle: async () => ok([...(await load()).schemas.components.values()].map(contentManagerDto)),
    },
    {
      method: 'GET',
      path: '/content-manager/content-types-settings',
      auth: 'admin',
      handle: async () => {
        const store = await load();
        return ok(
          [...store.schemas.contentTypes.keys()].map((uid) => ({
            uid,
            settings: withEmptyParts(store.get(uid)).settings,
          })),
        );
      },
    },
    {
      method: 'GET',
      path: '/content-manager/content-types/:uid/configuration',
      auth: 'admin',
      handle: async (request) => {
        const store = await load();
        const model = contentType(store, request.params.uid);
        const configuration = { uid: model.uid, ...withEmptyParts(store.get(model.uid)) };
        return ok({
          contentType: {
            ...configuration,
            metadatas: { ...withListMainField(configuration.metadatas), documentId: DOCUMENT_ID_METADATA },
          },
          components: componentsOf(store, model),
        });
      },
    },
    {
      method: 'PUT',
      path: '/content-manager/content-types/:uid/configuration',
      auth: 'admin',
      handle: async (request, admin) => {
        const store = await load();
        const model = contentType(store, request.params.uid);
        const kind = model.kind === 'singleType' ? 'single-types' : 'collection-types';
        if (!admin.may(`plugin::content-manager.${kind}.configure-view`, null)) throw new ForbiddenError();
        const input = parseConfigurationInput(request.body, model, store.schemas);
        const configuration = { uid: model.uid, ...withEmptyParts(await store.update(model.uid, input)) };
        return ok({
          contentType: { ...configuration, metadatas: withListMainField(configuration.metadatas) },
          components: componentsOf(store, model),
        });
      },
    },
    {
      method: 'GET',
      path: '/content-manager/components/:uid/configuration',
      auth: 'admin',
      handle: async (request) => {
        const store = await load();
        const model = component(store, request.params.uid);
        return ok({ component: componentData(store, model), components: componentsOf(store, model) });
      },
    },
    {
      method: 'PUT',
      path: '/content-manager/components/:uid/configuration',
      auth: 'admin',
      handle: async (request) => {
        const store = await load();
        const model = component(store, request.params.uid);
        await store.update(model.uid, parseConfigurationInput(request.body, model, store.schemas));
        return ok(componentData(store, model));
      },
    },
  ];
}

/** A stored configuration with its missing parts empty (Strapi merges stored values over `EMPTY_CONFIG`). */
function withEmptyParts(stored: StoredConfiguration | undefined) {
  const value = stored ?? {};
  const layouts = typeof value.layouts === 'object' && value.layouts !== null ? value.layouts : {};
  return {
    ...value,
    settings: typeof value.settings === 'object' && value.settings !== null ? value.settings : {},
    metadatas: (typeof value.metadatas === 'object' && value.metadatas !== null ? value.metadatas : {}) as Metadatas,
    layouts: { list: [], edit: [], ...layouts },
  };
}

/** Each relation's `edit.mainField` copied into `list.mainField`, as the content-type configuration routes answer. */
function withListMainField(metadatas: Metadatas): Metadatas {
  return Object.fromEntries(
    Object.entries(metadatas).map(([name, meta]) =>
      meta.edit && 'mainField' in meta.edit
        ? [name, { ...meta, list: { ...(meta.list as object), mainField: meta.edit.mainField } }]
        : [name, meta],
    ),
  );
}
