import type { Middleware } from 'koa';
import type { AccessControl, Principal } from '../access/principal.js';
import { ForbiddenError, PolicyError, ProjectError, UnauthorizedError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { toErrorEnvelope } from '../http/error-envelope.js';
import { adminPolicy, type AdminAuthenticate } from './admin-routes.js';
import type { CodeRegistry, NameScope } from './code-registry.js';
import { principalOf, setPrincipal, setServedRoute, type ProjectContext } from './context-state.js';
import type { ProjectRoute } from './project-routes.js';

/** What a project route's chain needs from the app. */
export interface RoutePipelineDeps {
  readonly access: AccessControl;
  readonly registry: CodeRegistry;
  readonly strapi: () => unknown;
  /** `ctx.state.auth` and `ctx.state.user` for an authenticated caller (users-permissions, API tokens). */
  stateOf(principal: Principal): Promise<{ auth: unknown; user: unknown }>;
  /** Authenticates an `admin` route's caller as the admin panel does (plugins' admin routes). */
  readonly adminAuthenticate: AdminAuthenticate;
}

/**
 * The Koa chain of one project route, in Strapi's order: route info (`ctx.state.route`),
 * authenticate (skipped with `auth: false`; a bad credential → 401), authorize (the route's action,
 * or its `auth.scope`, must be granted; a ForbiddenError or UnauthorizedError thrown anywhere after
 * it answers Strapi's bare 403/401, a PolicyError keeps its message), the route's policies
 * (`false` or anything but `true`/`undefined` → 403 "Policy Failed"), its middlewares, then the
 * action, whose returned value becomes the body when it set none. Names are resolved now: an
 * unknown policy, middleware or handler stops the start naming the route file.
 */
export function routeChain(
  route: ProjectRoute,
  deps: RoutePipelineDeps,
  steps: readonly Middleware[] = [],
): Middleware[] {
  const scope: NameScope = { api: route.api, plugin: route.plugin };
  const where = `${route.file}: route ${route.method} ${route.declaredPath}`;
  const permission = route.permission;
  const authConfig = route.config.auth;
  const info: Middleware = (ctx, next) => {
    ctx.state.route = {
      method: route.method,
      path: route.declaredPath,
      handler: route.handler,
      config: route.config,
      info: { ...(route.plugin ? { pluginName: route.plugin } : { apiName: route.api }), type: route.type },
    };
    setServedRoute(ctx as ProjectContext, `${route.method} ${route.path}`);
    return next();
  };
  const authenticate: Middleware = async (ctx, next) => {
    if (authConfig === false) return next();
    if (route.type === 'admin') return (await deps.adminAuthenticate(ctx as ProjectContext)) ? next() : undefined;
    let principal: Principal;
    try {
      principal = await deps.access.authenticate(ctx.get('authorization') || undefined);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      const envelope = toErrorEnvelope(error);
      ctx.status = envelope.status;
      ctx.body = envelope.body;
      return;
    }
    setPrincipal(ctx as ProjectContext, principal);
    const { auth, user } = await deps.stateOf(principal);
    ctx.state.isAuthenticated = true;
    ctx.state.auth = auth;
    if (user) ctx.state.user = user;
    return next();
  };
  const authorize: Middleware = async (ctx, next) => {
    try {
      // The admin strategy has no verify step: any signed-in admin passes (policies decide the rest).
      if (authConfig !== false && route.type === 'content-api') {
        const scopes = isRecord(authConfig) && Array.isArray(authConfig.scope) ? authConfig.scope : [permission];
        const principal = principalOf(ctx as ProjectContext);
        if (!scopes.some((action) => typeof action === 'string' && deps.access.can(principal, action)))
          throw new ForbiddenError();
      }
      return await next();
    } catch (error) {
      if (error instanceof UnauthorizedError) return (ctx as unknown as { unauthorized(): void }).unauthorized();
      if (error instanceof ForbiddenError) return (ctx as unknown as { forbidden(): void }).forbidden();
      throw error;
    }
  };
  const policies = route.config.policies.map((entry) => policyStep(entry, deps, scope, where));
  const middlewares = route.config.middlewares.map((entry) => middlewareStep(entry, deps, scope, where));
  const returnBody: Middleware = async (ctx, next) => {
    const value: unknown = await next();
    if ((ctx.body === undefined || ctx.body === null) && value !== undefined && value !== null) ctx.body = value;
  };
  return [
    info,
    authenticate,
    authorize,
    ...policies,
    ...steps,
    ...middlewares,
    returnBody,
    actionOf(route, deps, where),
  ];
}

function policyStep(entry: unknown, deps: RoutePipelineDeps, scope: NameScope, where: string): Middleware {
  const { policy, config } = namedEntry(
    entry,
    (n) => adminPolicy(n) ?? deps.registry.policy(n, scope),
    where,
    'policy',
  );
  return async (ctx, next) => {
    const result: unknown = await policy(ctx, config, { strapi: deps.strapi() });
    if (result !== true && result !== undefined) throw new PolicyError();
    return next();
  };
}

function middlewareStep(entry: unknown, deps: RoutePipelineDeps, scope: NameScope, where: string): Middleware {
  if (typeof entry === 'function') return entry as Middleware;
  const {
    policy: factory,
    config,
    name,
  } = namedEntry(entry, (n) => deps.registry.middleware(n, scope), where, 'middleware');
  const made: unknown = factory(config, { strapi: deps.strapi() });
  if (typeof made !== 'function') throw new ProjectError(`${where}: middleware ${name} must return (ctx, next) => …`);
  return made as Middleware;
}

function namedEntry<T>(
  entry: unknown,
  find: (name: string) => T | undefined,
  where: string,
  kind: string,
): { policy: T; config: unknown; name: string } {
  if (typeof entry === 'function') return { policy: entry as T, config: {}, name: entry.name || `inline ${kind}` };
  const name =
    typeof entry === 'string' ? entry : isRecord(entry) && typeof entry.name === 'string' ? entry.name : null;
  if (name === null) throw new ProjectError(`${where}: a ${kind} must be a name, { name, config } or a function`);
  const found = find(name);
  if (found === undefined && (name.startsWith('strapi::') || name.startsWith('admin::')))
    throw new ProjectError(`${where}: the ${kind} ${name} is Strapi's own; Cairn does not offer it to routes`);
  if (found === undefined)
    throw new ProjectError(
      `${where}: no ${kind} named ${name} (looked in src/api/*/${kind === 'policy' ? 'policies' : 'middlewares'}, src/${kind === 'policy' ? 'policies' : 'middlewares'} and the plugins' ${kind === 'policy' ? 'policies' : 'middlewares'})`,
    );
  const config = isRecord(entry) && entry.config !== undefined ? entry.config : {};
  return { policy: found, config, name };
}

function actionOf(route: ProjectRoute, deps: RoutePipelineDeps, where: string): Middleware {
  if (typeof route.handler === 'function') return route.handler as Middleware;
  if (Array.isArray(route.handler)) {
    const steps = route.handler as Middleware[];
    return async (ctx, next) => {
      let value: unknown;
      for (const step of steps) value = await step(ctx, next);
      return value;
    };
  }
  const controller = route.controller ? deps.registry.controller(route.controller) : undefined;
  if (!controller)
    throw new ProjectError(`${where}: the handler ${String(route.handler)} names no controller (${route.controller})`);
  const action = controller[route.action ?? ''];
  if (typeof action !== 'function') throw new ProjectError(`${where}: Handler not found "${String(route.handler)}"`);
  return (ctx) => (action as (ctx: unknown) => unknown).call(controller, ctx);
}
