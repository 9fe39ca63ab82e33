import { fieldValidationError, ForbiddenError } from '../../core/errors.js';
import type { Database, Executor, Row } from '../../db/database.js';
import type { Condition } from '../../plan/plan-types.js';
import { eq, isIn, rowOf, simpleSelect } from '../../plan/simple-plans.js';
import { decodeValue } from '../../shape/decode-value.js';
import { compileSelect } from '../../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../../sql/compile-write.js';
import { WEBHOOK_COLUMNS, WEBHOOKS } from '../../webhooks/webhook-store.js';
import type { WebhookInput } from './webhook-input.js';

/** A webhook as Strapi's admin API answers it (its store's `fromDBObject`): the id as a string, `isEnabled`. */
export interface WebhookView {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly events: readonly string[];
  readonly isEnabled: boolean;
}

/**
 * The admin panel's reads and writes of `strapi_webhooks`, each write one transaction. Webhooks
 * declared in `config/webhooks.js` (`declared`: their names) belong to that file, which is
 * written over their rows at every start: changing or deleting one here is refused (403 naming
 * the file) rather than silently undone at the next start, and no other webhook may take one of
 * their names (the file would take it over).
 */
export interface WebhookAdminStore {
  list(): Promise<WebhookView[]>;
  find(id: number): Promise<WebhookView | null>;
  /** Creates an enabled webhook (Strapi's store enables every new one). */
  create(input: WebhookInput): Promise<WebhookView>;
  /** Replaces the webhook's fields; `isEnabled` left out keeps it as it is. Null: no such webhook. */
  update(id: number, input: WebhookInput): Promise<WebhookView | null>;
  /** Deletes the webhooks of `ids` that exist (all or none: one declared in the file refuses the lot); returns those deleted. */
  delete(ids: readonly number[]): Promise<WebhookView[]>;
}

/** The store over `db`; `declared` names the webhooks of `config/webhooks.js`. */
export function createWebhookAdminStore(db: Database, declared: ReadonlySet<string>): WebhookAdminStore {
  const select = async (exec: Executor, where: Condition | null) =>
    (
      await exec.all(compileSelect(db.dialect, simpleSelect(WEBHOOKS, WEBHOOK_COLUMNS, where, { orderById: true })))
    ).map(viewOf);
  const values = (input: WebhookInput, enabled: boolean) =>
    rowOf({
      name: [input.name, 'string'],
      url: [input.url, 'string'],
      headers: [input.headers, 'json'],
      events: [input.events, 'json'],
      enabled: [enabled, 'boolean'],
    });
  /** A name the file declares cannot be given to another webhook: the file would take it over at the next start. */
  const checkName = (name: string) => {
    if (!declared.has(name)) return;
    throw fieldValidationError([
      {
        path: ['name'],
        message: `name "${name}" is taken by a webhook of config/webhooks.js`,
        name: 'ValidationError',
        value: name,
      },
    ]);
  };
  const checkOwned = (webhook: WebhookView, change: string) => {
    if (!declared.has(webhook.name)) return;
    throw new ForbiddenError(
      `The webhook "${webhook.name}" is declared in config/webhooks.js, which is applied at every start: ${change} it there, then restart Cairn`,
    );
  };

  return {
    list: () => select(db, null),
    async find(id) {
      return (await select(db, eq('id', id, 'integer')))[0] ?? null;
    },
    create(input) {
      checkName(input.name);
      return db.transaction(async (tx) => {
        const [id] = await tx.insert(compileInsert(db.dialect, { table: WEBHOOKS, rows: [values(input, true)] }), 1);
        const created = (await select(tx, eq('id', id, 'integer')))[0];
        if (!created) throw new Error(`the new webhook ${String(id)} was not found`);
        return created;
      });
    },
    update(id, input) {
      return db.transaction(async (tx) => {
        const current = (await select(tx, eq('id', id, 'integer')))[0];
        if (!current) return null;
        checkOwned(current, 'change');
        if (input.name !== current.name) checkName(input.name);
        const enabled = input.isEnabled ?? current.isEnabled;
        await tx.run(
          compileUpdate(db.dialect, { table: WEBHOOKS, set: values(input, enabled), where: eq('id', id, 'integer') }),
        );
        return {
          id: current.id,
          name: input.name,
          url: input.url,
          headers: input.headers,
          events: input.events,
          isEnabled: enabled,
        };
      });
    },
    delete(ids) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.transaction(async (tx) => {
        const found = await select(tx, isIn('id', ids, 'integer'));
        for (const webhook of found) checkOwned(webhook, 'remove');
        if (found.length > 0)
          await tx.run(
            compileDelete(db.dialect, {
              table: WEBHOOKS,
              where: isIn(
                'id',
                found.map((webhook) => Number(webhook.id)),
                'integer',
              ),
            }),
          );
        return found;
      });
    },
  };
}

/** A `strapi_webhooks` row as Strapi answers it (a row Strapi stored with `null` headers or events reads as empty). */
function viewOf(row: Row): WebhookView {
  const headers = decodeValue('json', row.headers);
  const events = decodeValue('json', row.events);
  return {
    id: String(row.id),
    name: String(row.name ?? ''),
    url: String(row.url ?? ''),
    headers:
      headers !== null && typeof headers === 'object' && !Array.isArray(headers)
        ? (headers as Record<string, string>)
        : {},
    events: Array.isArray(events) ? (events as string[]) : [],
    isEnabled: decodeValue('boolean', row.enabled) === true,
  };
}
