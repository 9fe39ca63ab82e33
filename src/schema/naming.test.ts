import { createHash } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { identifier, MAX_IDENTIFIER_LENGTH, snakeCase } from './naming.js';

/** The 5-hex-digit shake256 hash the doc comment describes, computed independently. */
const hash5 = (text: string) => createHash('shake256', { outputLength: 3 }).update(text).digest('hex').slice(0, 5);

describe('snakeCase', () => {
  // Verified against lodash's snakeCase.
  it.each([
    ['metaTitle', 'meta_title'],
    ['field1', 'field_1'],
    ['HTMLParser', 'html_parser'],
    ['isFeatured', 'is_featured'],
    ['my-name', 'my_name'],
    ['my_field', 'my_field'],
    ['ABCTest', 'abc_test'],
    ['a1b', 'a_1_b'],
    ['contactEmail', 'contact_email'],
    ['rich-text', 'rich_text'],
    ['fooBAR', 'foo_bar'],
    ['foo2Bar', 'foo_2_bar'],
    ['createdAt', 'created_at'],
    ['document_id', 'document_id'],
    ['ABC', 'abc'],
    ['aB', 'a_b'],
    ['iOS', 'i_os'],
  ])('%s → %s', (input, expected) => {
    expect(snakeCase(input)).toBe(expected);
  });

  it.each([
    ['', ''],
    ['title', 'title'],
    ['__leading', 'leading'],
    ['trailing--', 'trailing'],
  ])('edge case %j → %j', (input, expected) => {
    expect(snakeCase(input)).toBe(expected);
  });
});

describe('identifier', () => {
  it('is 55 characters at most', () => {
    expect(MAX_IDENTIFIER_LENGTH).toBe(55);
  });

  it.each([
    [['articles', 'tags'], { suffix: 'links' }, 'articles_tags_lnk'],
    [['articles', 'tags'], { suffix: 'order' }, 'articles_tags_ord'],
    [['articles'], { suffix: 'components' }, 'articles_cmps'],
    [['articles'], { suffix: 'component' }, 'articles_cmp'],
    [['articles', 'slug'], { suffix: 'unique' }, 'articles_slug_uq'],
    [['articles', 'tags'], { suffix: 'inv_fk' }, 'articles_tags_ifk'],
    [['articles', 'tags'], { suffix: 'order_inv_fk' }, 'articles_tags_oifk'],
    [['articles', 'tags'], { suffix: 'order_fk' }, 'articles_tags_ofk'],
    [['articles'], { suffix: 'morphs' }, 'articles_mph'],
    [['articles'], { suffix: 'index' }, 'articles_idx'],
    [['articles'], { suffix: 'primary' }, 'articles_pk'],
    [['articles'], { suffix: 'id_column_index' }, 'articles_idix'],
    [['articles'], { suffix: 'order_index' }, 'articles_oidx'],
    [['article'], { prefix: 'inv', suffix: 'id' }, 'inv_article_id'],
    [['article'], { suffix: 'id' }, 'article_id'],
    [['articles'], {}, 'articles'],
  ] as const)('%j with %j → %s', (names, options, expected) => {
    expect(identifier(names, options)).toBe(expected);
  });

  it('accepts a single string name', () => {
    expect(identifier('articles')).toBe('articles');
    expect(identifier('articles', { suffix: 'links' })).toBe('articles_lnk');
  });

  it.each<[string, { suffix?: string }, string]>([
    ['a'.repeat(55), {}, 'a'.repeat(55)],
    ['a'.repeat(51), { suffix: 'links' }, `${'a'.repeat(51)}_lnk`],
    [`${'a'.repeat(25)}_${'b'.repeat(29)}`, {}, `${'a'.repeat(25)}_${'b'.repeat(29)}`],
  ])('leaves a name of at most 55 characters unchanged (%#)', (name, options, expected) => {
    expect(expected).toHaveLength(55);
    expect(identifier(name, options)).toBe(expected);
  });

  it('leaves two tokens totalling 55 characters unchanged', () => {
    expect(identifier(['a'.repeat(26), 'b'.repeat(24)], { suffix: 'links' })).toBe(
      `${'a'.repeat(26)}_${'b'.repeat(24)}_lnk`,
    );
  });

  it('shortens one over-long name to exactly 55 characters, ending with the fixed suffix', () => {
    const name = 'a_very_long_collection_name_that_goes_on_and_on_and_on_forever';
    const result = identifier(name, { suffix: 'links' });
    expect(result).toHaveLength(55);
    expect(result.endsWith('_lnk')).toBe(true);
    // 55 - 'lnk' - one separator = 51 for the name: 46 kept characters + 5 hash digits.
    expect(result).toBe(`${name.slice(0, 46)}${hash5(name)}_lnk`);
  });

  it('shortens a long name without suffix to exactly 55 characters', () => {
    const name = 'x'.repeat(80);
    const result = identifier(name);
    expect(result).toHaveLength(55);
    expect(result).toBe(`${'x'.repeat(50)}${hash5(name)}`);
  });

  it('is deterministic', () => {
    const name = 'b'.repeat(70);
    expect(identifier([name, 'tags'], { suffix: 'links' })).toBe(identifier([name, 'tags'], { suffix: 'links' }));
  });

  it('gives different results to long names that differ only at the end (hash of the full text)', () => {
    const base = 'components_shared_a_very_long_component_collection_name_';
    const one = identifier(`${base}one`, { suffix: 'components' });
    const two = identifier(`${base}two`, { suffix: 'components' });
    expect(one).toHaveLength(55);
    expect(two).toHaveLength(55);
    expect(one.endsWith('_cmps')).toBe(true);
    expect(two.endsWith('_cmps')).toBe(true);
    expect(one).not.toBe(two);
    // Same kept prefix; only the hash differs.
    expect(one.slice(0, 45)).toBe(two.slice(0, 45));
  });

  it('shares the space between two long name tokens', () => {
    const first = 'x'.repeat(40);
    const second = 'y'.repeat(40);
    const result = identifier([first, second], { suffix: 'links' });
    // 55 - 3 (lnk) - 2 separators = 50 → 25 characters each (20 kept + 5 hash).
    expect(result).toBe(`${'x'.repeat(20)}${hash5(first)}_${'y'.repeat(20)}${hash5(second)}_lnk`);
    expect(result).toHaveLength(55);
  });

  it('lets a short token keep its length and gives its share to the long one', () => {
    const long = 'z'.repeat(80);
    const result = identifier(['short', long], { suffix: 'links' });
    expect(result).toBe(`short_${'z'.repeat(40)}${hash5(long)}_lnk`);
    expect(result).toHaveLength(55);
  });

  it('throws when the fixed tokens leave no room for the names', () => {
    expect(() => identifier(['a'.repeat(30), 'b'.repeat(30)], { suffix: 's'.repeat(50) })).toThrow(
      /Cannot shorten the database identifier/,
    );
  });
});
