import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  getNamedType,
  isInputObjectType,
  isLeafType,
  isObjectType,
  isUnionType,
  lexicographicSortSchema,
  parseValue as parseLiteral,
  printSchema,
  validateSchema,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type GraphQLTypeResolver,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationError, ProjectError } from '../src/core/errors.js';
import { buildGraphqlSchema } from '../src/graphql/build-graphql-schema.js';
import { enumValueName, graphqlTypeModels, pascalCase, rootFieldName } from '../src/graphql/graphql-naming.js';
import type { GraphqlResolvers, RootOperation } from '../src/graphql/graphql-resolvers.js';
import {
  GraphQLDate,
  GraphQLDateTime,
  GraphQLI18NLocaleCode,
  GraphQLJSON,
  GraphQLLong,
  GraphQLTime,
} from '../src/graphql/graphql-scalars.js';
import { loadProject } from '../src/project/load-project.js';
import { buildSchema } from '../src/schema/build-schema.js';
import { BUILTIN_CONTENT_TYPES } from '../src/schema/builtin-types.js';
import type { Model, Schema } from '../src/schema/types.js';
import { rawCollectionType } from './support/unit.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/**
 * The generated GraphQL schema against Strapi 5.54's GraphQL plugin: the blog example byte for
 * byte against what Strapi prints, and two small projects (fixtures/graphql/) whose assertions
 * restate the plugin's rules, named in each test and comment after the plugin source they come
 * from: `builders/type` (object fields, `!` for required, media, morphs), `builders/input`
 * (writable attributes, private ones kept), `builders/filters/content-type` (private ones left
 * out, no media, dynamic zones or morphs), `builders/utils#getContentTypeArgs` (list and
 * publication arguments), `utils/naming`, `constants#SCALARS_ASSOCIATIONS`, the i18n plugin's
 * `graphql.ts` (locale arguments, locale and localizations inputs) and the plugins' shadow-CRUD
 * settings.
 */

const FIXTURES = resolve(import.meta.dirname, 'fixtures/graphql');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project's content model, loaded as the server loads it, from a copy (loading writes `.env`). */
async function modelOf(source: string): Promise<Schema> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-graphql-'));
  dirs.push(dir);
  cpSync(source, dir, { recursive: true, filter: (path) => !/[\\/](\.env|\.tmp)$/.test(path) });
  return (await loadProject(dir, {})).schema;
}

/** Resolvers that remember what each function they hand out was made for. */
function recordingResolvers() {
  const roots = new Map<unknown, RootOperation>();
  const nested = new Map<unknown, { owner: Model; field: string; connection: boolean }>();
  const resolveType: GraphQLTypeResolver<unknown, unknown> = () => undefined;
  const resolvers: GraphqlResolvers<unknown> = {
    root(operation) {
      const resolve: GraphQLFieldResolver<unknown, unknown> = () => null;
      roots.set(resolve, operation);
      return resolve;
    },
    nested(owner, field, connection) {
      const resolve: GraphQLFieldResolver<unknown, unknown> = () => null;
      nested.set(resolve, { owner, field, connection });
      return resolve;
    },
    resolveType,
  };
  return { resolvers, roots, nested };
}

const build = (model: Schema, shadowCRUD = true) =>
  buildGraphqlSchema(model, { shadowCRUD }, recordingResolvers().resolvers);
const printSorted = (schema: GraphQLSchema) => `${printSchema(lexicographicSortSchema(schema))}\n`;

/** `Type.field` → its type as SDL (`String!`), or undefined when there is no such field. */
function typeOf(schema: GraphQLSchema, path: string): string | undefined {
  const [typeName = '', fieldName = ''] = path.split('.');
  const type = schema.getType(typeName);
  if (!isObjectType(type) && !isInputObjectType(type)) return undefined;
  const field = type.getFields()[fieldName];
  return field ? String(field.type) : undefined;
}

/** `Type.field` → its arguments as `name: Type`, sorted. */
function argsOf(schema: GraphQLSchema, path: string): string[] {
  const [typeName = '', fieldName = ''] = path.split('.');
  const type = schema.getType(typeName);
  const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
  if (!field) throw new Error(`no field ${path}`);
  return field.args.map((arg) => `${arg.name}: ${String(arg.type)}`).sort();
}

const fieldNames = (schema: GraphQLSchema, typeName: string): string[] => {
  const type = schema.getType(typeName);
  return isObjectType(type) || isInputObjectType(type) ? Object.keys(type.getFields()).sort() : [];
};

const PUBLICATION_ARGS = [
  'hasPublishedVersion: Boolean',
  'publicationFilter: PublicationFilter',
  'status: PublicationStatus',
];
const LIST_ARGS = ['pagination: PaginationArg', 'sort: [String]'];

let blog: Schema;
let plain: Schema;
let kinds: Schema;
beforeAll(async () => {
  [blog, plain, kinds] = await Promise.all([
    modelOf(EXAMPLE_PROJECT),
    modelOf(join(FIXTURES, 'plain-project')),
    modelOf(join(FIXTURES, 'kinds-project')),
  ]);
});

describe('the blog example', () => {
  it("prints, sorted, exactly the schema Strapi 5.54's GraphQL plugin prints for it", () => {
    const expected = readFileSync(join(FIXTURES, 'blog-schema.graphql'), 'utf8');
    expect(printSorted(build(blog))).toBe(expected);
  });

  it('maps every object type made from a model back to it', () => {
    const schema = build(blog);
    const models = graphqlTypeModels(blog);
    expect(models.get('Article')?.uid).toBe('api::article.article');
    expect(models.get('ComponentSharedQuote')?.uid).toBe('shared.quote');
    expect(models.get('I18NLocale')?.uid).toBe('plugin::i18n.locale');
    expect(models.get('ReviewWorkflowsWorkflowStage')?.uid).toBe('plugin::review-workflows.workflow-stage');
    for (const name of models.keys()) expect(isObjectType(schema.getType(name)), name).toBe(true);
    // admin::*, the upload folder and content releases are disabled by their plugins.
    expect([...models.values()].map((model) => model.uid).filter((uid) => /^admin::|folder|release/.test(uid))).toEqual(
      [],
    );
  });

  it('parses dynamic-zone entries from `__typename` to `__component`', () => {
    const input = build(blog).getType('ArticleBlocksDynamicZoneInput');
    if (!input || !('parseValue' in input) || !('parseLiteral' in input)) throw new Error('no zone input scalar');
    expect(input.parseValue({ __typename: 'ComponentSharedQuote', title: 'Q' })).toEqual({
      __component: 'shared.quote',
      title: 'Q',
    });
    // The plugin looks the name up among all components; an unknown one lists the zone's.
    expect(() => input.parseValue({ __typename: 'Nope' })).toThrow(
      new ApplicationError(
        'Component not found. expected one of: ComponentSharedQuote, ComponentSharedRichText, ComponentSharedMediaBlock',
      ),
    );
    expect(input.parseLiteral(parseLiteral('{ __typename: "ComponentSharedRichText", body: $b }'), { b: 'x' })).toEqual(
      {
        __component: 'shared.rich-text',
        body: 'x',
      },
    );
    expect(input.parseLiteral(parseLiteral('"text"'), {})).toBeUndefined();
  });
});

describe('a project without localized types or draft & publish', () => {
  it('builds a valid schema', () => {
    expect(validateSchema(build(plain))).toEqual([]);
  });

  it('has no locale arguments and no I18NLocaleCode (i18n adds them for localized types only)', () => {
    const schema = build(plain);
    for (const root of [schema.getQueryType(), schema.getMutationType()]) {
      for (const field of Object.values(root?.getFields() ?? {})) {
        expect(
          field.args.map((arg) => arg.name),
          field.name,
        ).not.toContain('locale');
      }
    }
    // Unused types are pruned.
    expect(schema.getType('I18NLocaleCode')).toBeUndefined();
  });

  it('keeps the publication arguments and publishedAt without draft & publish (getContentTypeArgs adds them to every type)', () => {
    const schema = build(plain);
    expect(argsOf(schema, 'Query.notes')).toEqual(
      ['filters: NoteFiltersInput', ...LIST_ARGS, ...PUBLICATION_ARGS].sort(),
    );
    expect(argsOf(schema, 'Mutation.createNote')).toEqual(['data: NoteInput!', 'status: PublicationStatus']);
    expect(typeOf(schema, 'Note.publishedAt')).toBe('DateTime');
    expect(typeOf(schema, 'NoteInput.publishedAt')).toBe('DateTime');
  });

  it('leaves `locale` out of the type and filters but not the input of a type that is not localized (private, writable)', () => {
    const schema = build(plain);
    expect(typeOf(schema, 'Note.locale')).toBeUndefined();
    expect(typeOf(schema, 'Note.localizations')).toBeUndefined();
    expect(typeOf(schema, 'NoteFiltersInput.locale')).toBeUndefined();
    expect(typeOf(schema, 'NoteInput.locale')).toBe('String');
  });

  it('gives a single type one query, update and delete, without documentId', () => {
    const schema = build(plain);
    expect(argsOf(schema, 'Query.setting')).toEqual(PUBLICATION_ARGS);
    expect(argsOf(schema, 'Mutation.updateSetting')).toEqual(['data: SettingInput!', 'status: PublicationStatus']);
    expect(argsOf(schema, 'Mutation.deleteSetting')).toEqual([]);
    for (const absent of ['Query.settings', 'Query.settings_connection', 'Mutation.createSetting']) {
      expect(typeOf(schema, absent), absent).toBeUndefined();
    }
    // Its to-many relation is a list with the target's list arguments, and its connection variant.
    expect(typeOf(schema, 'Setting.pinned')).toBe('[Note]!');
    expect(typeOf(schema, 'Setting.pinned_connection')).toBe('NoteRelationResponseCollection');
  });

  it('generates nothing from the model with shadowCRUD off, leaving the placeholder query', () => {
    expect(printSorted(build(plain, false))).toBe('type Query {\n  ok: Boolean!\n}\n');
  });
});

describe('a project using every attribute kind', () => {
  it('builds a valid schema', () => {
    expect(validateSchema(build(kinds))).toEqual([]);
  });

  it('maps attribute types to scalars as the plugin (SCALARS_ASSOCIATIONS)', () => {
    const schema = build(kinds);
    const expected: Record<string, string> = {
      code: 'String', // uid
      contact: 'String', // email
      description: 'String', // richtext
      details: 'JSON', // blocks
      price: 'Float', // decimal
      attendance: 'Long', // biginteger
      stampedAt: 'DateTime', // timestamp
      day: 'Date',
      doorsOpen: 'Time',
      accessCode: 'String', // a password that is not private stays
    };
    for (const [field, type] of Object.entries(expected)) expect(typeOf(schema, `Event.${field}`), field).toBe(type);
    expect(typeOf(schema, 'EventFiltersInput.attendance')).toBe('LongFilterInput');
    expect(typeOf(schema, 'EventFiltersInput.stampedAt')).toBe('DateTimeFilterInput');
  });

  it('names enumerations ENUM_<TYPE>_<ATTRIBUTE> with slugified values (toRegressedEnumValue), filtered as strings', () => {
    const schema = build(kinds);
    const stage = schema.getType('ENUM_EVENT_STAGE');
    if (!stage || !('getValues' in stage)) throw new Error('no enum');
    expect(stage.getValues().map(({ name, value }) => [name, value])).toEqual([
      ['draft', 'draft'],
      ['in_progress', 'in progress'],
      ['Done', 'Done!'],
      ['a_venir', 'à venir'],
    ]);
    expect(typeOf(schema, 'Event.stage')).toBe('ENUM_EVENT_STAGE');
    expect(typeOf(schema, 'EventInput.stage')).toBe('ENUM_EVENT_STAGE');
    expect(typeOf(schema, 'EventFiltersInput.stage')).toBe('StringFilterInput');
    expect(typeOf(schema, 'ComponentAgendaSlot.kind')).toBe('ENUM_COMPONENTAGENDASLOT_KIND');
  });

  it('marks required attributes `!` on the object type only (builder.nonNull), whatever their kind', () => {
    const schema = build(kinds);
    expect(typeOf(schema, 'Event.title')).toBe('String!');
    expect(typeOf(schema, 'Event.venue')).toBe('Venue!');
    expect(typeOf(schema, 'Event.poster')).toBe('UploadFile!');
    expect(typeOf(schema, 'Event.program')).toBe('[EventProgramDynamicZone]!');
    expect(typeOf(schema, 'ComponentAgendaSlot.starts')).toBe('Time!');
    for (const field of ['title', 'venue', 'poster', 'program', 'slots']) {
      expect(typeOf(schema, `EventInput.${field}`), field).not.toMatch(/!$/);
    }
  });

  it('lists a repeatable component with list arguments; min and max change nothing', () => {
    const schema = build(kinds);
    expect(typeOf(schema, 'Event.slots')).toBe('[ComponentAgendaSlot]!');
    expect(argsOf(schema, 'Event.slots')).toEqual(['filters: ComponentAgendaSlotFiltersInput', ...LIST_ARGS].sort());
    expect(typeOf(schema, 'Event.mainSlot')).toBe('ComponentAgendaSlot');
    expect(argsOf(schema, 'Event.mainSlot')).toEqual([]);
    expect(typeOf(schema, 'EventInput.slots')).toBe('[ComponentAgendaSlotInput]');
    // Components carry their row id (`id: ID!`, `id: ID` in input to update in place), never a documentId.
    expect(fieldNames(schema, 'ComponentAgendaSlot')).toEqual(['id', 'kind', 'starts']);
    expect(fieldNames(schema, 'ComponentAgendaSlotInput')).toEqual(['id', 'kind', 'starts']);
    expect(fieldNames(schema, 'ComponentAgendaSlotFiltersInput')).toEqual(['and', 'kind', 'not', 'or', 'starts']);
  });

  it('shows media lists and morphTo relations; a morph relation with a target and relations to admin users get no field', () => {
    const schema = build(kinds);
    expect(typeOf(schema, 'Event.photos')).toBe('[UploadFile]!');
    expect(typeOf(schema, 'Event.photos_connection')).toBe('UploadFileRelationResponseCollection');
    expect(typeOf(schema, 'EventInput.photos')).toBe('[ID]');
    expect(typeOf(schema, 'Event.related')).toBe('[GenericMorph]');
    expect(typeOf(schema, 'Event.organizer')).toBe('UsersPermissionsUser');
    expect(typeOf(schema, 'EventFiltersInput.organizer')).toBe('UsersPermissionsUserFiltersInput');
    for (const absent of ['related', 'headline', 'reviewer', 'photos']) {
      expect(typeOf(schema, `EventFiltersInput.${absent}`), absent).toBeUndefined();
    }
    for (const absent of ['related', 'headline', 'reviewer']) {
      expect(typeOf(schema, `EventInput.${absent}`), absent).toBeUndefined();
    }
    expect(typeOf(schema, 'Event.headline')).toBeUndefined();
    expect(typeOf(schema, 'Event.reviewer')).toBeUndefined();
  });

  it('leaves private attributes out of the type and filters, not the input; non-writable ones out of the input', () => {
    const schema = build(kinds);
    // `pin` and `internalNote` are private in the schema, `internalScore` through config/api.js.
    for (const field of ['pin', 'internalNote', 'internalScore']) {
      expect(typeOf(schema, `Event.${field}`), field).toBeUndefined();
      expect(typeOf(schema, `EventFiltersInput.${field}`), field).toBeUndefined();
      expect(typeOf(schema, `EventInput.${field}`), field).toBeDefined();
    }
    expect(typeOf(schema, 'Event.computed')).toBe('String');
    expect(typeOf(schema, 'EventInput.computed')).toBeUndefined();
    for (const field of ['documentId', 'createdAt', 'updatedAt']) {
      expect(typeOf(schema, `EventInput.${field}`), field).toBeUndefined();
    }
  });

  it('gives a localized single type locale arguments, locale and localizations, none of them in its input', () => {
    const schema = build(kinds);
    const locale = 'locale: I18NLocaleCode';
    expect(argsOf(schema, 'Query.homepage')).toEqual([...PUBLICATION_ARGS, locale].sort());
    expect(argsOf(schema, 'Mutation.updateHomepage')).toEqual([
      'data: HomepageInput!',
      locale,
      'status: PublicationStatus',
    ]);
    expect(argsOf(schema, 'Mutation.deleteHomepage')).toEqual([locale]);
    expect(typeOf(schema, 'Homepage.locale')).toBe('String');
    // localizations targets a single type: no list arguments (getContentTypeArgs of a nested single type).
    expect(typeOf(schema, 'Homepage.localizations')).toBe('[Homepage]!');
    expect(argsOf(schema, 'Homepage.localizations')).toEqual([]);
    expect(fieldNames(schema, 'HomepageInput')).toEqual(['featured', 'heading', 'publishedAt']);
    // Types that are not localized keep their fields without locale.
    expect(argsOf(schema, 'Query.events')).not.toContain(locale);
  });

  it('puts every model with types, components included, in GenericMorph', () => {
    const morph = build(kinds).getType('GenericMorph');
    if (!isUnionType(morph)) throw new Error('no GenericMorph');
    expect(
      morph
        .getTypes()
        .map((type) => type.name)
        .sort(),
    ).toEqual([...graphqlTypeModels(kinds).keys()].sort());
  });
});

describe('resolvers', () => {
  it.each([
    ['blog', () => blog],
    ['kinds', () => kinds],
  ])('attaches the given resolvers to every root field, nested field and union (%s)', (_, model) => {
    const { resolvers, roots, nested } = recordingResolvers();
    const schema = buildGraphqlSchema(model(), { shadowCRUD: true }, resolvers);
    for (const root of [schema.getQueryType(), schema.getMutationType()]) {
      for (const [name, field] of Object.entries(root?.getFields() ?? {})) {
        const operation = roots.get(field.resolve);
        expect(operation, name).toBeDefined();
        expect(operation && rootFieldName(operation)).toBe(name);
      }
    }
    for (const [typeName, owner] of graphqlTypeModels(model())) {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) continue;
      for (const [name, field] of Object.entries(type.getFields())) {
        if (isLeafType(getNamedType(field.type))) {
          expect(field.resolve, `${typeName}.${name}`).toBeUndefined();
          continue;
        }
        const connection = name.endsWith('_connection');
        const expected = { owner, field: connection ? name.slice(0, -'_connection'.length) : name, connection };
        expect(nested.get(field.resolve), `${typeName}.${name}`).toEqual(expected);
      }
    }
    const unions = Object.values(schema.getTypeMap()).filter(isUnionType);
    expect(unions.map((union) => union.name)).toContain('GenericMorph');
    for (const union of unions) expect(union.resolveType, union.name).toBe(resolvers.resolveType);
  });
});

describe('naming', () => {
  it('follows upperFirst(camelCase(…)) and slugified enum values', () => {
    expect(pascalCase('users-permissions')).toBe('UsersPermissions');
    expect(pascalCase('i18n')).toBe('I18N');
    expect(pascalCase('component_shared.rich-text')).toBe('ComponentSharedRichText');
    expect(enumValueName('A&B c')).toBe('A_and_B_c');
    const locale = blog.contentTypes.get('plugin::i18n.locale');
    if (!locale) throw new Error('no locale type');
    expect(rootFieldName({ kind: 'findMany', type: locale })).toBe('i18NLocales');
    expect(rootFieldName({ kind: 'connection', type: locale })).toBe('i18NLocales_connection');
    expect(rootFieldName({ kind: 'delete', type: locale })).toBe('deleteI18NLocale');
    expect(rootFieldName({ kind: 'me' })).toBe('me');
  });

  it('refuses an enumeration value that has no GraphQL name', () => {
    const model = buildSchema(
      [
        ...BUILTIN_CONTENT_TYPES,
        rawCollectionType('api::rank.rank', 'rank', 'ranks', { place: { type: 'enumeration', enum: ['1st', '2nd'] } }),
      ],
      [],
    );
    expect(() => build(model)).toThrow(ProjectError);
    expect(() => build(model)).toThrow(/"1st"/);
  });
});

describe('scalars', () => {
  it('Long: a number up to 2^53 - 1, a string above; input from integers and strings holding one (as the plugin reads them), as a decimal string', () => {
    expect(GraphQLLong.serialize(5)).toBe(5);
    expect(GraphQLLong.serialize('42')).toBe(42);
    expect(GraphQLLong.serialize('9007199254740993')).toBe('9007199254740993');
    expect(() => GraphQLLong.serialize(1.5)).toThrow('BigInt cannot represent non-integer value: 1.5');
    expect(GraphQLLong.parseLiteral(parseLiteral('9007199254740993'), {})).toBe('9007199254740993');
    expect(GraphQLLong.parseLiteral(parseLiteral('"12"'), {})).toBe('12');
    expect(() => GraphQLLong.parseLiteral(parseLiteral('"1.5"'), {})).toThrow('BigInt cannot represent value: 1.5');
    expect(() => GraphQLLong.parseLiteral(parseLiteral('true'), {})).toThrow(
      'BigInt cannot represent non-integer value: true',
    );
    expect(GraphQLLong.parseValue('12')).toBe('12');
    expect(() => GraphQLLong.parseValue('1e3')).toThrow('BigInt cannot represent value: 1e3');
  });

  it('DateTime: RFC 3339 date-times with a zone, output at UTC', () => {
    expect(GraphQLDateTime.serialize('2024-05-17T10:00:00Z')).toBe('2024-05-17T10:00:00.000Z');
    expect(GraphQLDateTime.serialize(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(GraphQLDateTime.parseValue('2024-05-17T12:00:00+02:00')).toBe('2024-05-17T10:00:00.000Z');
    expect(() => GraphQLDateTime.parseValue('2024-05-17')).toThrow(
      'DateTime cannot represent an invalid date-time-string',
    );
    expect(() => GraphQLDateTime.parseValue('2023-02-29T00:00:00Z')).toThrow('invalid date-time-string');
    expect(() => GraphQLDateTime.parseLiteral(parseLiteral('1'), {})).toThrow('DateTime cannot represent non string');
  });

  it('Date, Time, JSON and I18NLocaleCode', () => {
    expect(GraphQLDate.parseValue('2024-02-29')).toBe('2024-02-29');
    expect(() => GraphQLDate.parseValue('2023-02-29')).toThrow(
      'Date cannot represent an invalid date-string 2023-02-29.',
    );
    expect(GraphQLDate.serialize(new Date('2024-05-17T23:00:00Z'))).toBe('2024-05-17');
    expect(GraphQLTime.parseValue('13:45:00')).toBe('13:45:00.000');
    expect(() => GraphQLTime.parseLiteral(parseLiteral('1'), {})).toThrow('Time cannot represent non string type');
    expect(GraphQLJSON.parseLiteral(parseLiteral('{ a: [1, "x", $v] }'), { v: true })).toEqual({ a: [1, 'x', true] });
    expect(GraphQLI18NLocaleCode.parseLiteral(parseLiteral('"fr-CA"'), {})).toBe('fr-CA');
    expect(GraphQLI18NLocaleCode.parseLiteral(parseLiteral('"*"'), {})).toBe('*');
    expect(() => GraphQLI18NLocaleCode.parseLiteral(parseLiteral('"not a locale"'), {})).toThrow(
      'Unknown locale supplied',
    );
    expect(() => GraphQLI18NLocaleCode.parseLiteral(parseLiteral('1'), {})).toThrow(
      'Locale cannot represent non string type',
    );
  });
});
