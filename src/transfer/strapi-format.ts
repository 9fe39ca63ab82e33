/**
 * The Strapi version whose data-transfer format Cairn reads and writes, recorded as
 * `metadata.json`'s `strapi.version` in the archives Cairn writes (`strapi import` compares
 * versions only when asked to; by default it ignores them).
 */
export const STRAPI_FORMAT_VERSION = '5.54.0';
