/**
 * The environment real Strapi runs with in the benchmarks, as ../shared/reference/strapi.sh sets
 * it: no telemetry, no EE or licence checks, no remote transfer, no browser opened.
 */
export const QUIET_STRAPI: Readonly<Record<string, string>> = {
  STRAPI_TELEMETRY_DISABLED: 'true',
  STRAPI_DISABLE_EE: 'true',
  STRAPI_DISABLE_LICENSE_PING: 'true',
  STRAPI_DISABLE_REMOTE_DATA_TRANSFER: 'true',
  BROWSER: 'none',
};
