import { inject } from 'vitest';
import { cityPortalScenario } from './support/project-shapes/city-portal.js';
import { coursePlatformScenario } from './support/project-shapes/course-platform.js';
import { marketingSiteScenario } from './support/project-shapes/marketing-site.js';
import { richTextStarterScenario } from './support/project-shapes/rich-text-starter.js';

/*
 * Four Strapi 5 projects of the shapes people publish (test/fixtures/projects/), each started as
 * it is, with no file changed, on every test database, and used over HTTP:
 * - marketing-site: pages of dynamic-zone sections, nested components, media, i18n, drafts, and
 *   route populate middlewares, whose printed config/api defaultQueries make answers deep;
 * - city-portal: 21 types and 84 components of every attribute and relation kind, GraphQL;
 * - rich-text-starter: CKEditor and colour picker custom fields, users-permissions' user extended;
 * - course-platform: TypeScript config files, ordered relations, no drafts, no i18n.
 * The scenarios live in test/support/project-shapes/, one file per fixture.
 */

for (const database of inject('databases')) {
  marketingSiteScenario(database);
  cityPortalScenario(database);
  richTextStarterScenario(database);
  coursePlatformScenario(database);
}
