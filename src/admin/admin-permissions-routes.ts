import { fieldValidationError, type FieldError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { adminPermissionCatalog } from './admin-permission-sections.js';
import { ok, type AdminRoute } from './admin-route.js';
import type { AdminSettingsDeps } from './admin-settings-context.js';

/** One question of `POST /admin/permissions/check`. */
interface PermissionQuestion {
  readonly action: string;
  readonly subject: string | null;
  readonly field: string | null;
}

function checkQuestions(body: unknown): PermissionQuestion[] {
  const errors: FieldError[] = [];
  const list = isRecord(body) ? body.permissions : undefined;
  const items = Array.isArray(list) ? list : [];
  if (list !== undefined && !Array.isArray(list))
    errors.push({ path: ['permissions'], message: 'permissions must be a `array` type', name: 'ValidationError' });
  const questions: PermissionQuestion[] = [];
  for (const [index, item] of items.entries()) {
    const at = (key?: string) => ['permissions', String(index), ...(key ? [key] : [])];
    const name = `permissions[${index}]`;
    if (!isRecord(item)) {
      errors.push({ path: at(), message: `${name} must be a \`object\` type`, name: 'ValidationError' });
      continue;
    }
    const { action, subject = null, field = null } = item;
    const extra = Object.keys(item).filter((key) => !['action', 'subject', 'field'].includes(key));
    if (extra.length > 0)
      errors.push({
        path: at(),
        message: `${name} field has unspecified keys: ${extra.join(', ')}`,
        name: 'ValidationError',
      });
    if (typeof action !== 'string' || action === '')
      errors.push({ path: at('action'), message: `${name}.action is a required field`, name: 'ValidationError' });
    if (subject !== null && typeof subject !== 'string')
      errors.push({
        path: at('subject'),
        message: `${name}.subject must be a \`string\` type`,
        name: 'ValidationError',
      });
    if (field !== null && typeof field !== 'string')
      errors.push({ path: at('field'), message: `${name}.field must be a \`string\` type`, name: 'ValidationError' });
    if (typeof action === 'string' && (subject === null || typeof subject === 'string'))
      questions.push({ action, subject, field: typeof field === 'string' ? field : null });
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  return questions;
}

/**
 * `GET /admin/permissions`: every action a role may be given, in the Roles screen's sections,
 * with the conditions a permission may carry (any signed-in admin, as in Strapi). And
 * `POST /admin/permissions/check`: for each `{ action, subject?, field? }`, whether the caller
 * may do it — some permission of theirs has that action and subject and, when it lists fields,
 * the field (its conditions are the document's business, so a conditional permission answers
 * true, as Strapi's check of a subject type does). The panel asks it before opening a page a
 * conditional permission guards.
 */
export function adminPermissionsRoutes(
  deps: Pick<AdminSettingsDeps, 'schema' | 'auth' | 'locales' | 'conditions'>,
): AdminRoute[] {
  return [
    {
      method: 'GET',
      path: '/admin/permissions',
      auth: 'admin',
      handle: async () => ok(adminPermissionCatalog(deps.schema, await deps.locales(), deps.conditions)),
    },
    {
      method: 'POST',
      path: '/admin/permissions/check',
      auth: 'admin',
      handle: async (request, admin) => {
        const questions = checkQuestions(request.body);
        if (admin.isSuperAdmin) return ok(questions.map(() => true));
        const held = await deps.auth.permissionsOf(admin.id);
        return ok(
          questions.map(({ action, subject, field }) =>
            held.some((permission) => {
              if (permission.action !== action || permission.subject !== subject) return false;
              const fields = permission.properties.fields;
              return field === null || !Array.isArray(fields) || fields.includes(field);
            }),
          ),
        );
      },
    },
  ];
}
