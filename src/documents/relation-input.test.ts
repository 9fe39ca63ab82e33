import { describe, expect, it } from 'vitest';
import { validationError } from '../../test/support/unit.js';
import { parseRelationInput, type ConnectItem, type RelationInput, type RelationRef } from './relation-input.js';

const parse = (value: unknown): RelationInput => parseRelationInput('tags', value);

const doc = (documentId: string, extra: { locale?: string; status?: 'draft' | 'published' } = {}): RelationRef => ({
  by: 'documentId',
  documentId,
  ...extra,
});
const row = (id: number): RelationRef => ({ by: 'id', id });
const set = (...items: RelationRef[]): RelationInput => ({ kind: 'set', items });
const atEnd = (ref: RelationRef): ConnectItem => ({ ref, position: { kind: 'end' } });
const change = (connect: ConnectItem[], disconnect: RelationRef[] = []): RelationInput => ({
  kind: 'change',
  connect,
  disconnect,
});

describe('parseRelationInput: shorthand forms (a whole new list)', () => {
  it.each<[string, unknown, RelationInput]>([
    ['a documentId string', 'abc123xyz', set(doc('abc123xyz'))],
    ['a digit string is a row id', '7', set(row(7))],
    ['a positive integer is a row id', 7, set(row(7))],
    ['{ id } with a number', { id: 4 }, set(row(4))],
    ['{ id } with a digit string', { id: '4' }, set(row(4))],
    ['{ id } with a documentId string', { id: 'abc' }, set(doc('abc'))],
    ['{ documentId }', { documentId: 'abc' }, set(doc('abc'))],
    ['{ documentId, locale }', { documentId: 'abc', locale: 'fr' }, set(doc('abc', { locale: 'fr' }))],
    ['{ documentId, status: draft }', { documentId: 'abc', status: 'draft' }, set(doc('abc', { status: 'draft' }))],
    [
      '{ documentId, status: published }',
      { documentId: 'abc', status: 'published' },
      set(doc('abc', { status: 'published' })),
    ],
    [
      '{ documentId, locale, status }',
      { documentId: 'abc', locale: 'fr', status: 'draft' },
      set(doc('abc', { locale: 'fr', status: 'draft' })),
    ],
    ['{ documentId, locale: null } drops the locale', { documentId: 'abc', locale: null }, set(doc('abc'))],
    ['{ documentId } wins over id', { documentId: 'abc', id: 3 }, set(doc('abc'))],
    ['an array of documentIds', ['a', 'b'], set(doc('a'), doc('b'))],
    ['an array of row ids', [4, '5', { id: 6 }], set(row(4), row(5), row(6))],
    [
      'a mixed array keeps the order',
      ['a', 2, { documentId: 'c', locale: 'de' }],
      set(doc('a'), row(2), doc('c', { locale: 'de' })),
    ],
    ['an empty array clears', [], set()],
    ['null clears', null, set()],
  ])('%s', (_name, value, expected) => {
    expect(parse(value)).toEqual(expected);
  });

  it('does not add locale or status keys that were not given', () => {
    const result = parse({ documentId: 'abc' });
    expect(result.kind).toBe('set');
    const [ref] = (result as Extract<RelationInput, { kind: 'set' }>).items;
    expect(ref).toBeDefined();
    expect('locale' in (ref as object)).toBe(false);
    expect('status' in (ref as object)).toBe(false);
  });
});

describe('parseRelationInput: operations', () => {
  it('{ set } is the whole new list', () => {
    expect(parse({ set: ['a', 3, { documentId: 'c', status: 'published' }] })).toEqual(
      set(doc('a'), row(3), doc('c', { status: 'published' })),
    );
  });

  it('{ set: [] } clears', () => {
    expect(parse({ set: [] })).toEqual(set());
  });

  it('{ connect, disconnect } changes the current links', () => {
    expect(parse({ connect: ['a', { id: 2 }], disconnect: ['b', 5] })).toEqual(
      change([atEnd(doc('a')), atEnd(row(2))], [doc('b'), row(5)]),
    );
  });

  it('connect alone', () => {
    expect(parse({ connect: [{ documentId: 'a', locale: 'fr', status: 'draft' }] })).toEqual(
      change([atEnd(doc('a', { locale: 'fr', status: 'draft' }))]),
    );
  });

  it('disconnect alone', () => {
    expect(parse({ disconnect: [{ documentId: 'a' }] })).toEqual(change([], [doc('a')]));
  });

  it('empty connect and disconnect change nothing', () => {
    expect(parse({ connect: [], disconnect: [] })).toEqual(change([], []));
  });

  it('null connect/disconnect are empty lists', () => {
    expect(parse({ connect: null, disconnect: null })).toEqual(change([], []));
  });

  it.each<[string, unknown, RelationInput]>([
    ['connect: a documentId', { connect: 'a' }, change([atEnd(doc('a'))])],
    ['connect: a row id', { connect: 3 }, change([atEnd(row(3))])],
    ['connect: { documentId }', { connect: { documentId: 'a' } }, change([atEnd(doc('a'))])],
    ['disconnect: a documentId', { disconnect: 'b' }, change([], [doc('b')])],
    ['disconnect: { id }', { disconnect: { id: 9 } }, change([], [row(9)])],
    ['set: a documentId', { set: 'a' }, set(doc('a'))],
    ['set: { documentId }', { set: { documentId: 'a', locale: 'en' } }, set(doc('a', { locale: 'en' }))],
  ])('a single item where a list is expected is a list of one (%s)', (_name, value, expected) => {
    expect(parse(value)).toEqual(expected);
  });

  it('ignores `options` next to the operations', () => {
    expect(parse({ connect: ['a'], options: { strict: false } })).toEqual(change([atEnd(doc('a'))]));
    expect(parse({ set: ['a'], options: { strict: false } })).toEqual(set(doc('a')));
  });

  it('`options` alone changes nothing', () => {
    expect(parse({ options: { strict: true } })).toEqual(change([], []));
  });
});

describe('parseRelationInput: connect positions', () => {
  const connectOne = (item: Record<string, unknown>) => parse({ connect: [item] });

  it('defaults to the end', () => {
    expect(connectOne({ documentId: 'a' })).toEqual(change([{ ref: doc('a'), position: { kind: 'end' } }]));
  });

  it('a null position is the default (end)', () => {
    expect(connectOne({ documentId: 'a', position: null })).toEqual(
      change([{ ref: doc('a'), position: { kind: 'end' } }]),
    );
  });

  it.each<[string, unknown, ConnectItem['position']]>([
    ['start', { start: true }, { kind: 'start' }],
    ['end', { end: true }, { kind: 'end' }],
    ['before a documentId', { before: 'b' }, { kind: 'before', ref: doc('b') }],
    ['after a documentId', { after: 'b' }, { kind: 'after', ref: doc('b') }],
    ['before a row id', { before: 12 }, { kind: 'before', ref: row(12) }],
    [
      'after a longhand target',
      { after: { documentId: 'b', locale: 'fr' } },
      { kind: 'after', ref: doc('b', { locale: 'fr' }) },
    ],
  ])('%s', (_name, position, expected) => {
    expect(connectOne({ documentId: 'a', position })).toEqual(change([{ ref: doc('a'), position: expected }]));
  });

  it('keeps each connect item with its own position, in order', () => {
    expect(
      parse({
        connect: [{ documentId: 'a', position: { start: true } }, 'b', { documentId: 'c', position: { before: 'a' } }],
      }),
    ).toEqual(
      change([
        { ref: doc('a'), position: { kind: 'start' } },
        { ref: doc('b'), position: { kind: 'end' } },
        { ref: doc('c'), position: { kind: 'before', ref: doc('a') } },
      ]),
    );
  });
});

describe('parseRelationInput: rejected values', () => {
  const rejects = (label: string, value: unknown) => {
    const error = validationError(() => parseRelationInput(label, value));
    expect(error.message.startsWith(`Invalid relation value for ${label}: `)).toBe(true);
    return error;
  };

  it.each<[string, unknown]>([
    ['true', true],
    ['false', false],
    ['an empty object', {}],
    ['an object without documentId or id', { foo: 1 }],
    ['a nested array', [[1]]],
    ['zero', 0],
    ['the digit string 0', '0'],
    ['a digit string beyond safe integers', '99999999999999999999'],
    ['a negative id', -1],
    ['a fractional id', 1.5],
    ['an unsafe integer', 2 ** 53],
    ['NaN', Number.NaN],
    ['an empty string', ''],
    ['an empty documentId and no id', { documentId: '' }],
    ['{ id: 0 }', { id: 0 }],
    ['{ id: true }', { id: true }],
    ['{ id: null }', { id: null }],
    ['a bad item inside an array', ['a', true]],
    ['a bad item inside set', { set: [{}] }],
    ['a bad item inside connect', { connect: [-3] }],
    ['a bad item inside disconnect', { disconnect: [''] }],
    ['set combined with connect', { set: ['a'], connect: ['b'] }],
    ['set combined with disconnect', { set: ['a'], disconnect: ['b'] }],
    ['an unknown key next to an operation', { connect: ['a'], foo: 1 }],
    ['connect that is not a list or an item', { connect: true }],
    ['a bad status', { documentId: 'a', status: 'archived' }],
    ['a bad status in connect', { connect: [{ documentId: 'a', status: 'live' }] }],
    ['a non-string locale', { documentId: 'a', locale: 5 }],
    ['a non-string locale in set', { set: [{ documentId: 'a', locale: ['fr'] }] }],
    [
      'a position with both before and after',
      { connect: [{ documentId: 'a', position: { before: 'a', after: 'b' } }] },
    ],
    ['a position given as a string', { connect: [{ documentId: 'a', position: 'start' }] }],
    ['an unknown position key', { connect: [{ documentId: 'a', position: { middle: true } }] }],
    ['an empty position object', { connect: [{ documentId: 'a', position: {} }] }],
    ['a position target that is not a reference', { connect: [{ documentId: 'a', position: { before: true } }] }],
  ])('%s', (_name, value) => {
    rejects('tags', value);
  });

  it('names the attribute label given, nested paths included', () => {
    const error = rejects('blocks[0].author', {});
    expect(error.message).toContain('blocks[0].author');
  });
});
