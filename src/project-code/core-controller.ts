import { authorizeQuery, findableBy } from '../access/authorize-query.js';
import type { AccessControl } from '../access/principal.js';
import { assertFindableRelationInput } from '../access/restricted-relations.js';
import { dataOfPayload, sanitizeData } from '../access/sanitize-input.js';
import type { Config } from '../config/config.js';
import { NotFoundError } from '../core/errors.js';
import type { HttpResponse } from '../http/http-types.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { ContentType, Schema } from '../schema/types.js';
import { principalOf, type ProjectContext } from './context-state.js';
import { sanitizeOutput } from './sanitize-output.js';

/** A core action Cairn serves itself: the content API's handler for `<uid>.<verb>`, as the REST route runs it. */
export type CoreHandler = (ctx: ProjectContext, params: Readonly<Record<string, string>>) => Promise<HttpResponse>;

/** What core controllers need from the app. */
export interface CoreControllerDeps {
  readonly schema: Schema;
  readonly config: Config;
  readonly access: AccessControl;
  /** Cairn's own handler of a content-API action (`api::article.article.find`). */
  coreHandler(action: string): CoreHandler;
  /**
   * Whether the type's core actions must run Strapi's way (validate, sanitize, the project's
   * service, sanitize the output): the project overrides its service, or added Document Service
   * middlewares. Otherwise they are Cairn's own handlers, with today's speed and answers.
   */
  throughProjectServices(uid: string, verb: string): boolean;
  /** `strapi.service(uid)`. */
  service(uid: string): Record<string, (...args: unknown[]) => Promise<unknown>>;
}

type Controller = Record<string, unknown>;
type Helpers = {
  validateQuery(ctx: ProjectContext): Promise<void>;
  sanitizeQuery(ctx: ProjectContext): Promise<Record<string, unknown>>;
  validateInput(data: unknown, ctx: ProjectContext): Promise<void>;
  sanitizeInput(data: unknown, ctx: ProjectContext): Promise<Record<string, unknown>>;
  sanitizeOutput(data: unknown, ctx: ProjectContext): Promise<unknown>;
  transformResponse(data: unknown, meta?: Record<string, unknown>): { data: unknown; meta: Record<string, unknown> };
};

/**
 * Strapi's core controller of `type`: `find`, `findOne`, `create`, `update`, `delete` (single types:
 * `find`, `update`, `delete`) and the helpers project controllers call on `this`. Each action
 * answers as the REST route does; a project's `super.find(ctx)` reaches it with `ctx.query` as
 * the project's middlewares left it. While the type's service and the Document Service are the
 * core ones, an action is Cairn's own handler (today's answer and speed); otherwise it goes
 * through `strapi.service(uid)` as Strapi's does.
 */
export function createCoreController(deps: CoreControllerDeps, type: ContentType): Controller {
  const { schema, config, access } = deps;
  const uid = type.uid;
  const mayFind = (ctx: ProjectContext) => findableBy(access, principalOf(ctx));
  const helpers: Helpers = {
    async validateQuery(ctx) {
      const query = normalizeQuery(schema, type, ctx.query as Record<string, unknown>, {
        api: config.api,
        defaultLocale: config.i18n.defaultLocale,
      });
      authorizeQuery(schema, type, query, mayFind(ctx));
    },
    async sanitizeQuery(ctx) {
      return structuredClone(ctx.query as Record<string, unknown>);
    },
    async validateInput(data, ctx) {
      assertFindableRelationInput(schema, type, sanitizeData(schema, type, data), mayFind(ctx));
    },
    async sanitizeInput(data, ctx) {
      const clean = sanitizeData(schema, type, data);
      assertFindableRelationInput(schema, type, clean, mayFind(ctx));
      return clean;
    },
    async sanitizeOutput(data, ctx) {
      return sanitizeOutput(schema, type, data, mayFind(ctx));
    },
    transformResponse(data, meta = {}) {
      return { data: data ?? null, meta };
    },
  };
  /** Cairn's handler for the action, its status carried to the context (201 on create, 204 on delete). */
  const fast = async (verb: string, ctx: ProjectContext) => {
    const params: Record<string, string> = typeof ctx.params.id === 'string' ? { documentId: ctx.params.id } : {};
    const response = await deps.coreHandler(`${uid}.${verb}`)(ctx, params);
    if (response.status !== 200) ctx.status = response.status;
    return response.body;
  };
  const viaService = (verb: string) => deps.throughProjectServices(uid, verb);
  const service = () => deps.service(uid);
  const id = (ctx: ProjectContext) => String(ctx.params.id ?? '');

  async function find(this: Helpers, ctx: ProjectContext) {
    if (!viaService('find')) return fast('find', ctx);
    await this.validateQuery(ctx);
    const query = await this.sanitizeQuery(ctx);
    if (type.kind === 'singleType') {
      const found = await service().find!(query);
      if (!found) throw new NotFoundError();
      return this.transformResponse(await this.sanitizeOutput(found, ctx));
    }
    const { results, pagination } = (await service().find!(query)) as { results: unknown; pagination: unknown };
    return this.transformResponse(await this.sanitizeOutput(results, ctx), { pagination });
  }
  async function findOne(this: Helpers, ctx: ProjectContext) {
    if (!viaService('findOne')) return fast('findOne', ctx);
    await this.validateQuery(ctx);
    const found = await service().findOne!(id(ctx), await this.sanitizeQuery(ctx));
    if (!found) throw new NotFoundError();
    return this.transformResponse(await this.sanitizeOutput(found, ctx));
  }
  async function create(this: Helpers, ctx: ProjectContext) {
    if (!viaService('create')) return fast('create', ctx);
    await this.validateQuery(ctx);
    const query = await this.sanitizeQuery(ctx);
    const data = await this.sanitizeInput(dataOfPayload(bodyOf(ctx)), ctx);
    const created = await service().create!({ ...query, data });
    ctx.status = 201;
    return this.transformResponse(await this.sanitizeOutput(created, ctx));
  }
  async function update(this: Helpers, ctx: ProjectContext) {
    if (!viaService('update')) return fast('update', ctx);
    await this.validateQuery(ctx);
    const query = await this.sanitizeQuery(ctx);
    const data = await this.sanitizeInput(dataOfPayload(bodyOf(ctx)), ctx);
    const updated =
      type.kind === 'singleType'
        ? await service().createOrUpdate!({ ...query, data })
        : await service().update!(id(ctx), { ...query, data });
    if (!updated) throw new NotFoundError();
    return this.transformResponse(await this.sanitizeOutput(updated, ctx));
  }
  async function remove(this: Helpers, ctx: ProjectContext) {
    if (!viaService('delete')) return fast('delete', ctx);
    await this.validateQuery(ctx);
    const query = await this.sanitizeQuery(ctx);
    const outcome = (await (type.kind === 'singleType'
      ? service().delete!(query)
      : service().delete!(id(ctx), query))) as { deletedEntries?: number } | null;
    if (type.kind !== 'singleType' && !outcome?.deletedEntries) throw new NotFoundError();
    ctx.status = 204;
    return undefined;
  }
  const actions =
    type.kind === 'singleType' ? { find, update, delete: remove } : { find, findOne, create, update, delete: remove };
  return { ...helpers, ...actions };
}

function bodyOf(ctx: ProjectContext): unknown {
  return (ctx.request as { body?: unknown }).body;
}
