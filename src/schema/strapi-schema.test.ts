import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readModelFiles } from '../project/read-model-files.js';
import { BUILTIN_CONTENT_TYPES } from './builtin-types.js';
import { buildSchema } from './build-schema.js';
import { strapiSchemaRecord } from './strapi-schema.js';

const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/strapi-5.54-blog');
/** What real Strapi 5.54 stored in `strapi_database_schema` after starting on an empty database with examples/blog's model. */
const strapiStored = JSON.parse(readFileSync(resolve(FIXTURES, 'database-schema.json'), 'utf8')) as {
  tables: { name: string }[];
};
const strapiHash = (
  JSON.parse(readFileSync(resolve(FIXTURES, 'bookkeeping.json'), 'utf8')) as { strapiDatabaseSchemaHash: string }
).strapiDatabaseSchemaHash;

const files = readModelFiles(resolve(import.meta.dirname, '../../examples/blog'));
const schema = buildSchema([...BUILTIN_CONTENT_TYPES, ...files.contentTypes], files.components);
const byName = (tables: readonly { name: string }[]) => new Map(tables.map((table) => [table.name, table]));

describe('the schema Strapi 5.54 records for a content model', () => {
  const record = strapiSchemaRecord(schema);
  const ours = (JSON.parse(record.json) as { tables: { name: string }[] }).tables;

  it('has the hash Strapi computed for the same project, so a Strapi start skips its schema diff', () => {
    expect(record.hash).toBe(strapiHash);
  });

  it("lists Strapi's tables, each exactly as Strapi records it", () => {
    const theirs = byName(strapiStored.tables);
    expect(ours.map((table) => table.name).sort()).toEqual([...theirs.keys()].sort());
    for (const table of ours) expect(table, table.name).toEqual(theirs.get(table.name));
  });

  it("keeps Strapi's table order (components in the project's order: Strapi's own follows its file walk)", () => {
    const notComponents = (tables: readonly { name: string }[]) =>
      tables.map((table) => table.name).filter((name) => !name.startsWith('components_'));
    expect(notComponents(ours)).toEqual(notComponents(strapiStored.tables));
  });

  it("changes with the content model (Strapi's next start then diffs the database)", () => {
    const tag = files.contentTypes.find((type) => type.uid === 'api::tag.tag');
    if (!tag) throw new Error('examples/blog has no tag type');
    const withColor = {
      ...tag,
      definition: { ...tag.definition, attributes: { ...tag.definition.attributes, color: { type: 'string' } } },
    };
    const changed = buildSchema(
      [...BUILTIN_CONTENT_TYPES, ...files.contentTypes.map((type) => (type === tag ? withColor : type))],
      files.components,
    );
    expect(strapiSchemaRecord(changed).hash).not.toBe(strapiHash);
  });

  it("leaves out Cairn's own indexes", () => {
    const names = ours.flatMap((table) =>
      (table as unknown as { indexes: { name: string }[] }).indexes.map((index) => index.name),
    );
    expect(
      names.filter((name) => name.endsWith('_inv_ord_idx') || name.startsWith('strapi_sessions_session_id')),
    ).toEqual([]);
  });
});
