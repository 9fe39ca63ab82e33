import type { AccessControl } from '../access/principal.js';
import { contentApiRoutes } from '../api/content-api.js';
import type { Config } from '../config/config.js';
import { ProjectError } from '../core/errors.js';
import type { DocumentService } from '../documents/document-service.js';
import type { ContentType, Schema } from '../schema/types.js';
import type { CodeObject, CodeRegistry } from './code-registry.js';
import { createCoreController } from './core-controller.js';
import { createCoreService } from './core-service.js';
import { principalOf, requestOf } from './context-state.js';
import type { ProjectDocuments } from './project-documents.js';

/** Services methods behind each core action: an override of one sends the action through the project's service. */
const SERVICE_METHOD: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  collectionType: { find: 'find', findOne: 'findOne', create: 'create', update: 'update', delete: 'delete' },
  singleType: { find: 'find', update: 'createOrUpdate', delete: 'delete' },
};

/** What makes the core controllers and services `factories.createCore*` build on. */
export interface CoreBuildersDeps {
  readonly schema: Schema;
  readonly config: Config;
  readonly access: AccessControl;
  readonly service: DocumentService;
  readonly documents: ProjectDocuments;
  readonly registry: CodeRegistry;
}

/** The core controller and service of a content type, and whether a core action goes through the project's service. */
export interface CoreObjectBuilders {
  controller(uid: string): CodeObject;
  service(uid: string): CodeObject;
  /**
   * Whether the core action `verb` of `uid` must run Strapi's way, through the type's service: the
   * project overrides the service method behind it, or the type is a plugin's (Cairn has no
   * handler of its own for those).
   */
  throughProjectServices(uid: string, verb: string): boolean;
}

/**
 * Strapi's core controllers and services over Cairn's: a core controller's action is Cairn's own
 * content-API handler while the type's service is the core one (core-controller.ts), a core
 * service reads and writes through the project's Document Service (core-service.ts).
 */
export function createCoreBuilders(deps: CoreBuildersDeps): CoreObjectBuilders {
  const { schema, config, access, registry } = deps;
  const coreHandlers = new Map(
    contentApiRoutes({ config, schema, service: deps.service }).map((route) => [route.action, route.handle]),
  );
  const typeOf = (uid: string): ContentType => {
    const type = schema.contentTypes.get(uid);
    if (!type) throw new ProjectError(`factories.createCore*('${uid}'): no content type has this uid`);
    return type;
  };
  const throughProjectServices = (uid: string, verb: string): boolean => {
    const type = schema.contentTypes.get(uid);
    if (type?.origin === 'plugin') return true;
    if (!type || !registry.hasOwn('service', uid)) return false;
    const method = SERVICE_METHOD[type.kind]?.[verb];
    const instance = registry.service(uid);
    return method !== undefined && instance !== undefined && Object.prototype.hasOwnProperty.call(instance, method);
  };
  return {
    throughProjectServices,
    controller: (uid) =>
      createCoreController(
        {
          schema,
          config,
          access,
          coreHandler: (action) => {
            const handle = coreHandlers.get(action);
            if (!handle) throw new ProjectError(`${action} is not a core action of the project's content types`);
            return (ctx, params) => handle(requestOf(ctx, params), principalOf(ctx));
          },
          throughProjectServices,
          service: (target) => registry.service(target) as Record<string, (...args: unknown[]) => Promise<unknown>>,
        },
        typeOf(uid),
      ),
    service: (uid) =>
      createCoreService(
        { schema, api: config.api, defaultLocale: config.i18n.defaultLocale, documents: deps.documents },
        typeOf(uid),
      ) as unknown as CodeObject,
  };
}
