import { IS_CREATOR, SAME_ROLE_AS_CREATOR, type AdminCondition, type AdminConditions } from './admin-conditions.js';
import type { ConditionWhere, GrantCondition, GrantSource } from './admin-grants.js';
import { readConditionAnswer, type ConditionAnswer } from './condition-query.js';

/** The admin as a condition's handler receives it: the admin user with its `roles`, as Strapi's admin strategy reads it. */
export type ConditionUser = Readonly<Record<string, unknown>>;

const BUILT_IN = new Set<GrantCondition>([IS_CREATOR, SAME_ROLE_AS_CREATOR]);

/** Whether some permission carries a condition other than Strapi's own two (then they need evaluating for each admin). */
export function needsEvaluation(permissions: readonly GrantSource[]): boolean {
  return permissions.some((permission) => permission.conditions.some((condition) => !BUILT_IN.has(condition)));
}

/**
 * The permissions as they hold for one admin, their project conditions evaluated as Strapi 5's
 * permission engine evaluates them at each request: each handler is called with the admin (its
 * `permission` added) and its answer read (condition-query.ts); a condition that is not
 * registered, or whose handler answers no object, is left out, and so is one whose handler throws
 * or answers a query Cairn cannot apply (reported in the log: Strapi would fail the request).
 * Then, for each permission: no condition left, or every one `false` → the permission does not
 * hold (dropped); one `true` → it holds on every row (no condition); else it holds where one of
 * the rest does (Strapi's own two kept by id, the project's as their queries).
 *
 *   [api::featured] answering { isFeatured: true } → [{ id: 'api::featured', where: { isFeatured: true } }]
 *   [admin::is-creator, api::always] (true)        → []   (every row)
 *   [api::never] (false), [api::unknown]           → dropped
 */
export async function evaluatePermissions<P extends GrantSource>(
  permissions: readonly P[],
  user: ConditionUser,
  conditions: AdminConditions,
): Promise<P[]> {
  const held: P[] = [];
  for (const permission of permissions) {
    if (permission.conditions.every((condition) => BUILT_IN.has(condition))) {
      held.push(permission);
      continue;
    }
    const answers = await Promise.all(
      permission.conditions.map(async (condition): Promise<Answer | null> => {
        if (typeof condition !== 'string') return { kind: 'where', condition };
        if (BUILT_IN.has(condition)) return { kind: 'where', condition };
        const registered = conditions.get(condition);
        return registered?.handler ? answerOf(registered, permission, user, conditions) : null;
      }),
    );
    const valid = answers.filter((answer): answer is Answer => answer !== null);
    if (valid.every((answer) => answer.kind === 'none')) continue;
    if (valid.some((answer) => answer.kind === 'all')) {
      held.push({ ...permission, conditions: [] });
      continue;
    }
    const kept = valid.flatMap((answer) => (answer.kind === 'where' ? [answer.condition] : []));
    held.push({ ...permission, conditions: kept });
  }
  return held;
}

/** One condition's answer for the admin: every row, none, or the rows of a condition. */
type Answer = { readonly kind: 'all' | 'none' } | { readonly kind: 'where'; readonly condition: GrantCondition };

async function answerOf(
  condition: AdminCondition,
  permission: GrantSource,
  user: ConditionUser,
  conditions: AdminConditions,
): Promise<Answer | null> {
  let read: ConditionAnswer;
  try {
    const handler = condition.handler as NonNullable<AdminCondition['handler']>;
    read = readConditionAnswer(await handler({ ...user, permission: structuredClone(permission) }));
  } catch (error) {
    conditions.report(condition, `its handler threw: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  switch (read.kind) {
    case 'all':
    case 'none':
      return { kind: read.kind };
    case 'ignored':
      return null;
    case 'where': {
      const where: ConditionWhere = { id: condition.id, where: read.where };
      return { kind: 'where', condition: where };
    }
    case 'invalid':
      conditions.report(condition, `its handler ${read.problem}; the condition does not hold`);
      return null;
  }
}
