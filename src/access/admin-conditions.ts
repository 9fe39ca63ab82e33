import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

/** Strapi's two admin conditions, which Cairn evaluates itself (admin-scope.ts). */
export const IS_CREATOR = 'admin::is-creator';
export const SAME_ROLE_AS_CREATOR = 'admin::has-same-role-as-creator';

/** A project condition's handler: called with the admin (and the permission) for each request, as Strapi calls it. */
export type ConditionHandler = (user: Record<string, unknown>) => unknown;

/** A condition a permission of an admin role may carry, as the Roles screen lists it. */
export interface AdminCondition {
  /** `admin::<name>`, `api::<name>` or `plugin::<plugin>.<name>`, as Strapi computes it. */
  readonly id: string;
  readonly displayName: string;
  /** The Roles screen's group (`default` unless the project names one). */
  readonly category: string;
  /** The project's handler; null for Strapi's own two, which Cairn evaluates itself. */
  readonly handler: ConditionHandler | null;
  /** Where the project registered it (`src/index.js:12:5`), for messages; null for Strapi's own. */
  readonly registeredAt: string | null;
}

/**
 * The conditions admin permissions may carry: Strapi's own two and those the project registers
 * through `strapi.admin.services.permission.conditionProvider` in its `register` or `bootstrap`.
 * Once the server has started no more are taken, as in Strapi.
 */
export interface AdminConditions {
  /**
   * Every condition, in Strapi's registration order: those of the project's `register`, then
   * Strapi's own two (the admin registers them in its bootstrap, which runs before the
   * project's), then those of the project's `bootstrap`.
   */
  list(): readonly AdminCondition[];
  get(id: string): AdminCondition | undefined;
  /** Whether one of the project's conditions is registered (else nothing needs evaluating). */
  hasProjectConditions(): boolean;
  /**
   * Registers a project condition `{ displayName, name, category?, plugin?, handler }` under its
   * id. Throws Strapi's Error on a duplicate id or once closed, and a ProjectError (what Cairn
   * refuses to run) on a condition without a name or displayName, or whose handler is not a
   * function (Strapi's engine skips such a condition: it never holds, and a permission carrying
   * only it grants nothing).
   */
  register(attributes: unknown, registeredAt: string | null): AdminCondition;
  /** The project's `bootstrap` begins: conditions registered from now on come after Strapi's own. */
  startBootstrap(): void;
  /** No more registrations: the server has started. */
  close(): void;
  /** Reports what a project condition's handler did wrong at a request (the server's log), once per condition and problem. */
  report(condition: AdminCondition, problem: string): void;
}

const BUILT_IN: readonly AdminCondition[] = [
  { id: IS_CREATOR, displayName: 'Is creator', category: 'default', handler: null, registeredAt: null },
  {
    id: SAME_ROLE_AS_CREATOR,
    displayName: 'Has same role as creator',
    category: 'default',
    handler: null,
    registeredAt: null,
  },
];

/** The id Strapi gives a condition: `api::<name>`, `admin::<name>` (plugin `admin`) or `plugin::<plugin>.<name>`. */
export function conditionId(name: string, plugin: string | undefined): string {
  if (!plugin) return `api::${name}`;
  return plugin === 'admin' ? `admin::${name}` : `plugin::${plugin}.${name}`;
}

/** The conditions registry of one server; `report` receives a project condition's failures at a request. */
export function createAdminConditions(report: (message: string) => void): AdminConditions {
  const registry = new Map<string, AdminCondition>(BUILT_IN.map((condition) => [condition.id, condition]));
  const early: AdminCondition[] = [];
  const late: AdminCondition[] = [];
  const reported = new Set<string>();
  let bootstrapping = false;
  let closed = false;
  return {
    list: () => [...early, ...BUILT_IN, ...late],
    get: (id) => registry.get(id),
    hasProjectConditions: () => registry.size > BUILT_IN.length,
    register(attributes, registeredAt) {
      if (closed) throw new Error("You can't register new conditions outside of the bootstrap function.");
      const where = registeredAt ? ` (at ${registeredAt})` : '';
      if (!isRecord(attributes))
        throw new ProjectError(
          `conditionProvider.register takes a condition object { displayName, name, handler }${where}`,
        );
      const { name, displayName, category, plugin, handler } = attributes;
      if (typeof name !== 'string' || name === '')
        throw new ProjectError(`an admin condition needs a name (a string)${where}`);
      if (typeof displayName !== 'string' || displayName === '')
        throw new ProjectError(`the admin condition "${name}" needs a displayName (a string)${where}`);
      if (plugin !== undefined && plugin !== null && typeof plugin !== 'string')
        throw new ProjectError(`the admin condition "${name}": plugin must be a plugin's name${where}`);
      const id = conditionId(name, typeof plugin === 'string' ? plugin : undefined);
      if (registry.has(id)) throw new Error(`Duplicated item key: ${id}`);
      if (typeof handler !== 'function')
        throw new ProjectError(
          `the admin condition ${id}: handler must be a function of the admin answering true, false or a query; Strapi skips a condition with any other handler, so it would never hold${where}`,
        );
      const condition: AdminCondition = {
        id,
        displayName,
        category: typeof category === 'string' && category !== '' ? category : 'default',
        handler: handler as ConditionHandler,
        registeredAt,
      };
      registry.set(id, condition);
      (bootstrapping ? late : early).push(condition);
      return condition;
    },
    startBootstrap() {
      bootstrapping = true;
    },
    close() {
      closed = true;
    },
    report(condition, problem) {
      const message = `admin condition ${condition.id}${condition.registeredAt ? ` (registered at ${condition.registeredAt})` : ''}: ${problem}`;
      if (reported.has(message)) return;
      // A bound: a handler failing with a new message at each request is still reported, without holding them all.
      if (reported.size < 1000) reported.add(message);
      report(message);
    },
  };
}
