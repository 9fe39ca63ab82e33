import { ProjectError, ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { RowAction, RowEvent, RowHooks } from '../documents/row-hooks.js';
import type { ContentType, Schema } from '../schema/types.js';
import type { CodeFiles } from './load-code-files.js';
import type { LoadedPlugin } from './load-plugins.js';

/** A subscriber as `strapi.db.lifecycles.subscribe` takes it: hooks by event (optionally `models`), or one function. */
type Subscriber =
  | { readonly models: ReadonlySet<string> | null; readonly hooks: Readonly<Record<string, unknown>> }
  | { readonly all: (event: unknown) => unknown };

/** A subscriber's hook for one event. */
interface Handler {
  readonly subscriber: Subscriber;
  readonly call: (event: unknown) => unknown;
}

/** The project's lifecycles: the write path's RowHooks, and `strapi.db.lifecycles`. */
export interface Lifecycles extends RowHooks {
  /** `strapi.db.lifecycles.subscribe(subscriber)`. */
  subscribe(subscriber: unknown): void;
  /** Whether any hook is registered at all. */
  any(): boolean;
}

const ACTIONS: readonly RowAction[] = [
  'beforeCreate',
  'afterCreate',
  'beforeUpdate',
  'afterUpdate',
  'beforeDelete',
  'afterDelete',
  'beforeCreateMany',
  'afterCreateMany',
  'beforeUpdateMany',
  'afterUpdateMany',
  'beforeDeleteMany',
  'afterDeleteMany',
  'beforeFindOne',
  'afterFindOne',
  'beforeFindMany',
  'afterFindMany',
  'beforeCount',
  'afterCount',
];

/**
 * Strapi's database lifecycles: each content type's `lifecycles.{js,ts}` and each plugin content
 * type's `lifecycles` (registered first, as Strapi loads them with the model) and the subscribers
 * project code adds with
 * `strapi.db.lifecycles.subscribe({ models, beforeCreate, … })` or a function, called in that order.
 * A hook gets Strapi's event: `action`, `model` (uid, singularName, tableName, attributes),
 * `params` (changes to `params.data` in a before-hook are what is written), `state` (shared by a
 * before and its after) and `result`; it may be async; what it throws aborts the write.
 */
export function createLifecycles(files: CodeFiles, schema: Schema, plugins: readonly LoadedPlugin[] = []): Lifecycles {
  const subscribers: Subscriber[] = [];
  for (const [api, code] of files.apis) {
    for (const [name, file] of code.lifecycles) {
      const uid = `api::${api}.${name}`;
      if (!schema.contentTypes.has(uid)) continue;
      if (!isRecord(file.exports)) throw new ProjectError(`${file.path}: must export an object of lifecycle hooks`);
      subscribers.push({ models: new Set([uid]), hooks: file.exports });
    }
  }
  for (const plugin of plugins) {
    for (const [name, definition] of Object.entries(plugin.server.contentTypes)) {
      const hooks = isRecord(definition) ? definition.lifecycles : undefined;
      if (hooks === undefined) continue;
      if (!isRecord(hooks))
        throw new ProjectError(`${plugin.entry}: contentTypes.${name}.lifecycles must be an object of lifecycle hooks`);
      subscribers.push({ models: new Set([`plugin::${plugin.name}.${name}`]), hooks });
    }
  }
  const models = new Map<string, Record<string, unknown>>();
  const modelOf = (type: ContentType) => {
    let model = models.get(type.uid);
    if (!model) {
      model = Object.freeze({
        uid: type.uid,
        singularName: type.singularName,
        tableName: type.table,
        attributes: Object.fromEntries(
          [...type.attributes].map(([name, attribute]) => [name, { type: attribute.type }]),
        ),
      });
      models.set(type.uid, model);
    }
    return model;
  };
  const handlers = (uid: string, action: string) =>
    subscribers.flatMap((subscriber): Handler[] => {
      if ('all' in subscriber) return [{ subscriber, call: subscriber.all }];
      if (subscriber.models && !subscriber.models.has(uid)) return [];
      const hook = subscriber.hooks[action];
      return typeof hook === 'function'
        ? [{ subscriber, call: (event) => (hook as (e: unknown) => unknown).call(subscriber.hooks, event) }]
        : [];
    });
  // Each subscriber has a state of its own per operation (Strapi keeps them in a map by
  // subscriber): what a before-hook leaves there, its own after-hook finds.
  const states = new WeakMap<object, Map<Subscriber, Record<string, unknown>>>();
  const stateOf = (shared: Record<string, unknown>, subscriber: Subscriber) => {
    let bySubscriber = states.get(shared);
    if (!bySubscriber) states.set(shared, (bySubscriber = new Map()));
    let state = bySubscriber.get(subscriber);
    if (!state) bySubscriber.set(subscriber, (state = {}));
    return state;
  };
  // What each uid has hooks for, worked out once per uid and dropped when a subscriber is added:
  // `has` runs before every read and write, and allocates nothing once its uid is known.
  const known = new Map<string, ReadonlySet<string>>();
  const actionsOf = (uid: string): ReadonlySet<string> => {
    let actions = known.get(uid);
    if (!actions) {
      actions = new Set(ACTIONS.filter((action) => handlers(uid, action).length > 0));
      known.set(uid, actions);
    }
    return actions;
  };
  return {
    any: () => subscribers.length > 0,
    has(uid, actions) {
      const hooked = actionsOf(uid);
      for (const action of actions) if (hooked.has(action)) return true;
      return false;
    },
    async fire(event: RowEvent) {
      const model = modelOf(event.model);
      for (const { subscriber, call } of handlers(event.model.uid, event.action))
        await call({
          action: event.action,
          model,
          params: event.params,
          state: stateOf(event.state, subscriber),
          ...(event.result !== undefined && { result: event.result }),
        });
    },
    subscribe(subscriber) {
      known.clear();
      if (typeof subscriber === 'function') {
        subscribers.push({ all: subscriber as (event: unknown) => unknown });
        return;
      }
      if (!isRecord(subscriber))
        throw new ValidationError('strapi.db.lifecycles.subscribe() takes { models?, beforeCreate, … } or a function');
      const listed = Array.isArray(subscriber.models) ? new Set(subscriber.models.map(String)) : null;
      const unknownHook = Object.keys(subscriber).find((key) => key !== 'models' && !isKnownEvent(key));
      if (
        unknownHook !== undefined &&
        typeof subscriber[unknownHook] === 'function' &&
        !/^(before|after)/.test(unknownHook)
      )
        throw new ValidationError(`strapi.db.lifecycles.subscribe(): ${unknownHook} is not a lifecycle event`);
      subscribers.push({ models: listed, hooks: subscriber });
    },
  };
}

function isKnownEvent(name: string): boolean {
  return (
    (ACTIONS as readonly string[]).includes(name) ||
    /^(before|after)(FindOne|FindMany|Count|CreateMany|UpdateMany|DeleteMany)$/.test(name)
  );
}
