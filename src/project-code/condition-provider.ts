import type { AdminConditions } from '../access/admin-conditions.js';
import { readConditionAnswer } from '../access/condition-query.js';
import { ProjectError } from '../core/errors.js';
import { projectFrame } from './unoffered-member.js';

/** `strapi.admin.services.permission.conditionProvider` and what the start checks of the conditions it took. */
export interface ConditionProvider {
  /** The object project code calls. */
  readonly provider: Readonly<Record<string, unknown>>;
  /**
   * After the project's `bootstrap`: closes registration (as Strapi does once loaded) and stops the
   * start with a ProjectError naming each condition Cairn cannot run and where it was registered:
   * one refused when registered (even if the project did not await or caught the refusal), or
   * whose handler, called once with a stand-in admin, answers a query Cairn cannot apply (an
   * operator sift lacks, a list where a value belongs…). A handler that throws for the stand-in
   * is left to be judged at requests (its failures are logged there).
   */
  verify(): Promise<void>;
}

/** The admin a handler is called with at start: every field an admin has, empty, and no role. */
const STAND_IN: Readonly<Record<string, unknown>> = {
  id: 0,
  documentId: '',
  firstname: '',
  lastname: '',
  username: null,
  email: '',
  isActive: true,
  blocked: false,
  preferedLanguage: null,
  createdAt: '',
  updatedAt: '',
  publishedAt: '',
  locale: null,
  roles: [],
};

/**
 * The condition provider of Strapi's admin permission service over Cairn's conditions registry:
 * `register(condition)` and `registerMany([...])` (promises, as Strapi's; registered under
 * `api::<name>`, `admin::<name>` or `plugin::<plugin>.<name>`), and the reads `has`, `get`,
 * `keys`, `values`, `size`.
 */
export function createConditionProvider(conditions: AdminConditions, projectDir: string): ConditionProvider {
  const refused: string[] = [];
  const register = (attributes: unknown, site: string | null): void => {
    try {
      conditions.register(attributes, site);
    } catch (error) {
      if (error instanceof ProjectError) refused.push(error.message);
      throw error;
    }
  };
  const settled = (work: () => void): Promise<unknown> => {
    try {
      work();
      return Promise.resolve(provider);
    } catch (error) {
      const rejected = Promise.reject(error);
      // Awaited or not, as the project likes: a refusal Cairn must act on is also in `refused`.
      rejected.catch(() => undefined);
      return rejected;
    }
  };
  const view = (id: string) => {
    const condition = conditions.get(id);
    return condition && { id: condition.id, displayName: condition.displayName, category: condition.category };
  };
  const provider: Readonly<Record<string, unknown>> = {
    register: (attributes: unknown) => {
      const site = projectFrame(new Error().stack ?? '', projectDir);
      return settled(() => register(attributes, site));
    },
    registerMany: (list: unknown) => {
      const site = projectFrame(new Error().stack ?? '', projectDir);
      return settled(() => {
        if (!Array.isArray(list))
          throw new ProjectError(
            `conditionProvider.registerMany takes a list of conditions${site ? ` (at ${site})` : ''}`,
          );
        for (const attributes of list) register(attributes, site);
      });
    },
    has: (id: string) => conditions.get(id) !== undefined,
    get: (id: string) => view(id),
    keys: () => conditions.list().map((condition) => condition.id),
    values: () => conditions.list().map((condition) => view(condition.id)),
    size: () => conditions.list().length,
  };
  return {
    provider,
    async verify() {
      conditions.close();
      const problems = [...refused];
      for (const condition of conditions.list()) {
        if (!condition.handler) continue;
        let answer: unknown;
        try {
          answer = await condition.handler({
            ...STAND_IN,
            permission: { action: '', subject: null, properties: {}, conditions: [condition.id], actionParameters: {} },
          });
        } catch {
          continue;
        }
        const read = readConditionAnswer(answer);
        if (read.kind === 'invalid')
          problems.push(
            `admin condition ${condition.id}${condition.registeredAt ? ` (registered at ${condition.registeredAt})` : ''}: its handler ${read.problem}`,
          );
      }
      if (problems.length > 0)
        throw new ProjectError(`Cairn cannot apply these admin conditions:\n  ${problems.join('\n  ')}`);
    },
  };
}
