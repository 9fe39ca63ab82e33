import { findableBy } from '../access/authorize-query.js';
import type { AccessControl } from '../access/principal.js';
import { ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { getModel, type Schema } from '../schema/types.js';
import { principalOfAuth } from './context-state.js';
import { sanitizeOutput } from './sanitize-output.js';

/**
 * `strapi.contentAPI.sanitize.output(data, schema, { auth })`: what the content API would show of
 * `data` (a document or a list, of the model `schema` names by its `uid`, as `strapi.getModel`
 * gives it): private attributes and passwords dropped, and, with `auth` (`ctx.state.auth`),
 * relations to types that caller may not `find` (sanitize-output.ts).
 */
export function contentApiSanitize(
  schema: Schema,
  access: AccessControl,
): { output(data: unknown, model: unknown, options?: unknown): Promise<unknown> } {
  return {
    async output(data, model, options) {
      const uid = isRecord(model) && typeof model.uid === 'string' ? model.uid : undefined;
      const found = uid ? getModel(schema, uid) : undefined;
      if (!found) throw new ValidationError(`strapi.contentAPI.sanitize.output: no model ${String(uid)}`);
      const principal = isRecord(options) ? principalOfAuth(options.auth) : undefined;
      const mayFind = principal ? findableBy(access, principal) : () => true;
      return sanitizeOutput(schema, found, data, mayFind);
    },
  };
}
