/**
 * What a project's config files import from Strapi's own packages, provided by Cairn so that they
 * load without Strapi installed (a production image carries no project `node_modules`) and without
 * loading Strapi when it is: create-strapi-app 5.54's `config/database.{js,ts}` checks
 * `DATABASE_CLIENT` with `isDatabaseClientKind` from `@strapi/database`. Type-only imports
 * (`import type { Core } from '@strapi/strapi'`) are erased when the file is compiled.
 */
export const STRAPI_CONFIG_MODULES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  '@strapi/database': {
    /** Whether `client` names a database Strapi 5 connects to: sqlite, mysql or postgres. */
    isDatabaseClientKind: (client: unknown): boolean =>
      client === 'sqlite' || client === 'mysql' || client === 'postgres',
  },
};

/** Whether `source` imports one of the modules above (then it is loaded through them, not Node's resolution). */
export function importsStrapiConfigModule(source: string): boolean {
  return Object.keys(STRAPI_CONFIG_MODULES).some(
    (name) => source.includes(`'${name}'`) || source.includes(`"${name}"`),
  );
}
