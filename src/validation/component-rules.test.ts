import { describe, expect, it } from 'vitest';
import type { FieldError } from '../core/errors.js';
import { buildSchema } from '../schema/build-schema.js';
import type { ComponentAttribute, ContentType, DynamicZoneAttribute, Schema } from '../schema/types.js';
import { rawCollectionType, rawComponent } from '../../test/support/unit.js';
import { componentValueErrors, itemComponent } from './component-rules.js';

const schema: Schema = buildSchema(
  [
    rawCollectionType('api::page.page', 'page', 'pages', {
      seo: { type: 'component', component: 'shared.seo' },
      links: { type: 'component', component: 'shared.link', repeatable: true, min: 2, max: 3 },
      blocks: { type: 'dynamiczone', components: ['shared.quote', 'shared.link'], min: 1, max: 2 },
      free: { type: 'dynamiczone', components: ['shared.quote'] },
    }),
  ],
  [
    rawComponent('shared.seo', 'components_shared_seos', {
      metaTitle: { type: 'string' },
      keywords: { type: 'component', component: 'shared.link', repeatable: true, max: 2 },
    }),
    rawComponent('shared.link', 'components_shared_links', { url: { type: 'string' } }),
    rawComponent('shared.quote', 'components_shared_quotes', { text: { type: 'text' } }),
  ],
);
const page = schema.contentTypes.get('api::page.page') as ContentType;
const seoComponent = schema.components.get('shared.seo');
const attribute = (name: string) => page.attributes.get(name) as ComponentAttribute | DynamicZoneAttribute;
const keywords = seoComponent?.attributes.get('keywords') as ComponentAttribute;

describe('componentValueErrors: single components', () => {
  it('accepts an object', () => {
    expect(componentValueErrors(attribute('seo'), { metaTitle: 'x' }, ['seo'], false)).toEqual([]);
    expect(componentValueErrors(attribute('seo'), {}, ['seo'], true)).toEqual([]);
  });

  it('rejects an array with yup’s object type error', () => {
    expect(componentValueErrors(attribute('seo'), [], ['seo'], false)).toEqual([
      {
        path: ['seo'],
        message: 'seo must be a `object` type, but the final value was: `[]`.',
        name: 'ValidationError',
        value: [],
      },
    ]);
  });

  it.each<[unknown, string]>([
    ['x', '`"x"`'],
    [5, '`5`'],
    [true, '`true`'],
    [[{ metaTitle: 'a' }], '`[\n  {\n    "metaTitle": "\\"a\\""\n  }\n]`'],
  ])('rejects %j, printing the value as yup does', (value, printed) => {
    const [error, ...rest] = componentValueErrors(attribute('seo'), value, ['seo'], false);
    expect(rest).toEqual([]);
    expect(error).toEqual({
      path: ['seo'],
      message: `seo must be a \`object\` type, but the final value was: ${printed}.`,
      name: 'ValidationError',
      value,
    });
  });

  it('rejects non-objects on drafts too', () => {
    expect(componentValueErrors(attribute('seo'), 'x', ['seo'], true)).toHaveLength(1);
  });
});

describe('componentValueErrors: repeatable components and dynamic zones', () => {
  it.each([['links'], ['blocks']])('%s must be an array', (name) => {
    expect(componentValueErrors(attribute(name), {}, [name], false)).toEqual([
      {
        path: [name],
        message: `${name} must be a \`array\` type, but the final value was: \`{}\`.`,
        name: 'ValidationError',
        value: {},
      },
    ]);
    expect(componentValueErrors(attribute(name), 'x', [name], true)).toEqual([
      {
        path: [name],
        message: `${name} must be a \`array\` type, but the final value was: \`"x"\`.`,
        name: 'ValidationError',
        value: 'x',
      },
    ]);
  });

  it('accepts a list within min and max', () => {
    expect(componentValueErrors(attribute('links'), [{}, {}], ['links'], false)).toEqual([]);
    expect(componentValueErrors(attribute('links'), [{}, {}, {}], ['links'], false)).toEqual([]);
    expect(componentValueErrors(attribute('blocks'), [{}], ['blocks'], false)).toEqual([]);
    expect(componentValueErrors(attribute('blocks'), [{}, {}], ['blocks'], false)).toEqual([]);
  });

  it('enforces min when publishing', () => {
    const value = [{ url: 'a' }];
    expect(componentValueErrors(attribute('links'), value, ['links'], false)).toEqual([
      { path: ['links'], message: 'links field must have at least 2 items', name: 'ValidationError', value },
    ]);
  });

  it('enforces neither min nor max on drafts (Strapi checks bounds when publishing)', () => {
    expect(componentValueErrors(attribute('links'), [{ url: 'a' }], ['links'], true)).toEqual([]);
    expect(componentValueErrors(attribute('links'), [{}, {}, {}, {}], ['links'], true)).toEqual([]);
  });

  it('does not apply min to an empty list of an optional attribute', () => {
    expect(componentValueErrors(attribute('links'), [], ['links'], false)).toEqual([]);
    expect(componentValueErrors(attribute('blocks'), [], ['blocks'], false)).toEqual([]);
  });

  it('enforces max', () => {
    const value = [{}, {}, {}, {}];
    expect(componentValueErrors(attribute('links'), value, ['links'], false)).toEqual([
      {
        path: ['links'],
        message: 'links field must have less than or equal to 3 items',
        name: 'ValidationError',
        value,
      },
    ]);
    expect(componentValueErrors(attribute('blocks'), [{}, {}, {}], ['blocks'], false)).toEqual([
      {
        path: ['blocks'],
        message: 'blocks field must have less than or equal to 2 items',
        name: 'ValidationError',
        value: [{}, {}, {}],
      },
    ]);
  });

  it('has no bounds when the attribute declares none', () => {
    expect(componentValueErrors(attribute('free'), [], ['free'], false)).toEqual([]);
    expect(
      componentValueErrors(
        attribute('free'),
        Array.from({ length: 50 }, () => ({})),
        ['free'],
        false,
      ),
    ).toEqual([]);
  });

  it('labels nested paths the yup way', () => {
    const value = [{}, {}, {}];
    expect(componentValueErrors(keywords, value, ['seo', 'keywords'], false)).toEqual([
      {
        path: ['seo', 'keywords'],
        message: 'seo.keywords field must have less than or equal to 2 items',
        name: 'ValidationError',
        value,
      },
    ]);
    expect(componentValueErrors(keywords, {}, ['blocks', '0', 'keywords'], false)).toEqual([
      {
        path: ['blocks', '0', 'keywords'],
        message: 'blocks[0].keywords must be a `array` type, but the final value was: `{}`.',
        name: 'ValidationError',
        value: {},
      },
    ]);
  });
});

describe('itemComponent', () => {
  const run = (name: string, item: unknown, path: readonly string[]) => {
    const errors: FieldError[] = [];
    const component = itemComponent(schema, attribute(name), item, path, errors);
    return { component, errors };
  };

  it('returns the attribute’s component for a component item', () => {
    const { component, errors } = run('links', { url: 'x' }, ['links', '0']);
    expect(errors).toEqual([]);
    expect(component).toBe(schema.components.get('shared.link'));
  });

  it('returns the single component for a single component value', () => {
    const { component, errors } = run('seo', { metaTitle: 'x' }, ['seo']);
    expect(errors).toEqual([]);
    expect(component).toBe(seoComponent);
  });

  it('returns the dynamic-zone item’s __component when the zone allows it', () => {
    const { component, errors } = run('blocks', { __component: 'shared.link', url: 'x' }, ['blocks', '1']);
    expect(errors).toEqual([]);
    expect(component).toBe(schema.components.get('shared.link'));
  });

  it('requires __component, without a value key when it is missing', () => {
    const { component, errors } = run('blocks', { text: 'x' }, ['blocks', '0']);
    expect(component).toBeNull();
    expect(errors).toEqual([
      {
        path: ['blocks', '0', '__component'],
        message: 'blocks[0].__component is a required field',
        name: 'ValidationError',
      },
    ]);
    expect('value' in (errors[0] as object)).toBe(false);
  });

  it('requires a non-empty __component, reporting the empty string as the value', () => {
    const { component, errors } = run('blocks', { __component: '' }, ['blocks', '3']);
    expect(component).toBeNull();
    expect(errors).toEqual([
      {
        path: ['blocks', '3', '__component'],
        message: 'blocks[3].__component is a required field',
        name: 'ValidationError',
        value: '',
      },
    ]);
  });

  it('reports a null __component as a string type error, as yup does', () => {
    const { component, errors } = run('blocks', { __component: null }, ['blocks', '1']);
    expect(component).toBeNull();
    expect(errors).toEqual([
      {
        path: ['blocks', '1', '__component'],
        message: 'blocks[1].__component must be a `string` type, but the final value was: `null`.',
        name: 'ValidationError',
        value: null,
      },
    ]);
  });

  it('rejects a __component the zone does not list', () => {
    const { component, errors } = run('blocks', { __component: 'shared.nope' }, ['blocks', '0']);
    expect(component).toBeNull();
    expect(errors).toEqual([
      {
        path: ['blocks', '0', '__component'],
        message: 'blocks[0].__component must be one of the following values: shared.quote, shared.link',
        name: 'ValidationError',
        value: 'shared.nope',
      },
    ]);
  });

  it.each<[string, unknown, string]>([
    ['a string', 'x', '`"x"`'],
    ['null', null, '`null`'],
    ['an array', [], '`[]`'],
    ['a number', 3, '`3`'],
  ])('rejects %s as an item with an object type error', (_name, item, printed) => {
    for (const name of ['blocks', 'links']) {
      const { component, errors } = run(name, item, [name, '2']);
      expect(component).toBeNull();
      expect(errors).toEqual([
        {
          path: [name, '2'],
          message: `${name}[2] must be a \`object\` type, but the final value was: ${printed}.`,
          name: 'ValidationError',
          value: item,
        },
      ]);
    }
  });

  it('appends to the errors it is given', () => {
    const errors: FieldError[] = [{ path: ['x'], message: 'earlier', name: 'ValidationError' }];
    itemComponent(schema, attribute('blocks'), {}, ['blocks', '0'], errors);
    expect(errors.map((e) => e.message)).toEqual(['earlier', 'blocks[0].__component is a required field']);
  });
});
