import { ok, type AdminRoute } from './admin-route.js';

/**
 * The AI localization job of a document, which the panel's edit view asks for on every open:
 * `GET /i18n/ai-localization-jobs/collection-types/:contentType/:documentId` and
 * `GET /i18n/ai-localization-jobs/single-types/:contentType`. Strapi's i18n plugin answers
 * `{ data: job }` for any signed-in admin (no permission or model check), `job` being the row
 * of its `i18n_ai_localization_jobs` table for that document, or null when there is none.
 * Cairn runs no AI localization (Strapi CE without the `cms-ai` feature), so no job ever
 * exists and both answer `{ data: null }`, whatever the content type.
 */
export function aiLocalizationJobRoutes(): AdminRoute[] {
  const noJob = async () => ok(null);
  return [
    {
      method: 'GET',
      path: '/i18n/ai-localization-jobs/collection-types/:contentType/:documentId',
      auth: 'admin',
      handle: noJob,
    },
    { method: 'GET', path: '/i18n/ai-localization-jobs/single-types/:contentType', auth: 'admin', handle: noJob },
  ];
}
