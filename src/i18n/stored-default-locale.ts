import type { Config } from '../config/config.js';
import type { Project } from '../project/load-project.js';

/** The project with the default locale the database holds in place of the configured one. */
export function withDefaultLocale(project: Project, defaultLocale: string): Project {
  if (project.config.i18n.defaultLocale === defaultLocale) return project;
  return { ...project, config: { ...project.config, i18n: { ...project.config.i18n, defaultLocale } } };
}

/**
 * A start-up notice when the project lists its locales (`i18n.config.locales`) and the database's
 * default locale is not the configured one: the database's is used, as Strapi does.
 */
export function defaultLocaleNotice(configured: Config['i18n'], stored: string): string[] {
  if (configured.locales.length === 0 || configured.defaultLocale === stored) return [];
  return [
    `i18n: the database's default locale "${stored}" (set in the admin panel) is used, not "${configured.defaultLocale}" from config/plugins`,
  ];
}
