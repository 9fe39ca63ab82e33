import { describe, expect, it } from 'vitest';
import { buildSchema } from '../schema/build-schema.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import type { ContentType } from '../schema/types.js';
import { planSelect } from '../plan/plan-read.js';
import { compileSelect } from '../sql/compile-read.js';
import { sqliteDialect } from '../sql/dialects/sqlite.js';
import { normalizeFilters } from './normalize-filters.js';
import { normalizeQuery } from './normalize-query.js';
import { normalizeSort } from './normalize-sort.js';
import type { QueryAudience } from './query-audience.js';
import { validationError, rawCollectionType as collectionType } from '../../test/support/unit.js';

const schema = buildSchema(
  [
    ...BUILTIN_CONTENT_TYPES,
    collectionType('api::article.article', 'article', 'articles', {
      title: { type: 'string' },
      secret: { type: 'string', private: true },
    }),
  ],
  [],
);
const article = schema.contentTypes.get('api::article.article') as ContentType;
const filters = (raw: unknown, audience?: QueryAudience) => normalizeFilters(schema, article, raw, 'filters', audience);
const sort = (raw: unknown, audience?: QueryAudience) => normalizeSort(schema, article, raw, 'sort', audience);

describe('query audience: the creator fields', () => {
  it('lets the admin filter by a creator, as a relation to admin users', () => {
    expect(filters({ createdBy: { id: { $eq: '1' } } }, 'admin')).toEqual({
      kind: 'nested',
      attribute: 'createdBy',
      child: { kind: 'compare', field: 'id', op: 'eq', value: 1 },
    });
    expect(filters({ updatedBy: { email: { $containsi: 'ED' }, isActive: true } }, 'admin')).toEqual({
      kind: 'nested',
      attribute: 'updatedBy',
      child: {
        kind: 'and',
        children: [
          { kind: 'compare', field: 'email', op: 'containsi', value: 'ED' },
          { kind: 'compare', field: 'isActive', op: 'eq', value: true },
        ],
      },
    });
  });

  it('lets the admin sort by a creator’s public fields', () => {
    expect(sort('createdBy.firstname:desc,updatedBy.email', 'admin')).toEqual([
      { path: ['createdBy', 'firstname'], direction: 'desc' },
      { path: ['updatedBy', 'email'], direction: 'asc' },
    ]);
  });

  it.each(['password', 'roles', 'resetPasswordToken', 'registrationToken', 'blocked', 'preferedLanguage'])(
    'refuses the admin user field %s to the admin, in filters and sorts',
    (key) => {
      const filter = validationError(() => filters({ createdBy: { [key]: { $null: true } } }, 'admin'));
      expect(filter.message).toBe(`Invalid key ${key} at createdBy.${key}`);
      expect(filter.details).toEqual({ key, path: `createdBy.${key}`, source: 'query', param: 'filters' });
      const sorted = validationError(() => sort(`createdBy.${key}:asc`, 'admin'));
      expect(sorted.details).toEqual({ key, path: `createdBy.${key}`, source: 'query', param: 'sort' });
    },
  );

  it.each(['createdBy', 'updatedBy'])('keeps refusing %s to the content API (private there)', (key) => {
    for (const audience of [undefined, 'content-api'] as const) {
      expect(validationError(() => filters({ [key]: { id: { $eq: '1' } } }, audience)).message).toBe(
        `Invalid key ${key}`,
      );
      expect(validationError(() => sort(`${key}.firstname:asc`, audience)).message).toBe(`Invalid key ${key}`);
    }
  });

  it('changes nothing else: private attributes stay refused to both audiences', () => {
    for (const audience of ['admin', 'content-api'] as const) {
      expect(validationError(() => filters({ secret: 'x' }, audience)).message).toBe('Invalid key secret');
      expect(validationError(() => sort('secret', audience)).message).toBe('Invalid key secret');
    }
  });

  it('plans a creator filter and sort as joins on created_by_id / updated_by_id to admin_users', () => {
    const query = normalizeQuery(
      schema,
      article,
      { filters: { createdBy: { id: { $eq: '7' } } }, sort: 'updatedBy.lastname:asc' },
      {
        api: {
          prefix: '/api',
          defaultLimit: 25,
          maxLimit: 100,
          withCount: true,
          strictParams: false,
          documentsStrictParams: false,
          privateAttributes: [],
          defaultQueries: new Map(),
          deepPopulate: null,
        },
        defaultLocale: 'en',
        audience: 'admin',
      },
    );
    const { sql, params } = compileSelect(sqliteDialect, planSelect(schema, article, query));
    expect(sql).toContain(
      'exists (select 1 as "one" from "admin_users" as "t1" where ("t1"."id" = "t0"."created_by_id" and "t1"."id" = ?))',
    );
    expect(sql).toContain(
      'order by (select min("s1"."lastname") as "v" from "admin_users" as "s1" where "s1"."id" = "t0"."updated_by_id") asc',
    );
    expect(params).toContain(7);
  });
});
