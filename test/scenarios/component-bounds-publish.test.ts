import { expect } from 'vitest';
import { oneError } from '../support/components.js';
import { schemaFile } from '../support/content-types.js';
import { scenario, type Step } from '../support/scenario.js';
import { ID } from '../support/shapes.js';

/*
 * `min`/`max` of repeatable components and dynamic zones, at any depth, are checked when a draft &
 * publish document is published — on the draft as stored, whatever the request sent — as they are
 * on every write to a type without draft & publish; drafts (`?status=draft`) skip them. Messages
 * as Strapi's yup rules word them (component-rules.ts); the value is the stored list.
 *
 * The project copy declares shared.seo `keywords` with `max: 2`, and a new draft & publish type
 * api::landing.landing (/api/landings) whose dynamic zone `sections` has `min: 2, max: 3`.
 */

const SEO = {
  'src/components/shared/seo.json': JSON.stringify({
    collectionName: 'components_shared_seos',
    info: { displayName: 'Seo' },
    options: {},
    attributes: {
      metaTitle: { type: 'string', required: true },
      metaDescription: { type: 'text' },
      shareImage: { type: 'media', multiple: false, required: false, allowedTypes: ['images'] },
      keywords: { type: 'component', repeatable: true, component: 'shared.keyword', max: 2 },
    },
  }),
};
const LANDING = schemaFile({
  singularName: 'landing',
  pluralName: 'landings',
  displayName: 'Landing',
  draftAndPublish: true,
  attributes: {
    name: { type: 'string' },
    sections: { type: 'dynamiczone', components: ['shared.rich-text', 'shared.quote'], min: 2, max: 3 },
    seo: { type: 'component', repeatable: false, component: 'shared.seo' },
  },
});

const words = (...list: string[]) => list.map((word) => ({ word }));
const storedWords = (...list: string[]) => list.map((word) => ({ id: ID, word }));
const texts = (...list: string[]) => list.map((body) => ({ __component: 'shared.rich-text', body }));
const storedTexts = (...list: string[]) => list.map((body) => ({ __component: 'shared.rich-text', id: ID, body }));
const TOO_MANY_KEYWORDS = 'seo.keywords field must have less than or equal to 2 items';
/** A write of `data` to `path` refused with exactly `expected` (400). */
const refused = (
  name: string,
  method: string,
  path: string,
  data: Record<string, unknown>,
  expected: unknown,
  auth?: 'full',
): Step => ({
  name,
  method,
  path,
  body: { data },
  status: 400,
  equal: expected,
  ...(auth ? { auth } : {}),
});

scenario(
  'component bounds are checked when publishing',
  [
    refused(
      'publishing create: 3 keywords under max 2',
      'POST',
      '/api/articles',
      { title: 'Bounded', seo: { metaTitle: 'm', keywords: words('a', 'b', 'c') } },
      oneError(['seo', 'keywords'], TOO_MANY_KEYWORDS, storedWords('a', 'b', 'c')),
    ),
    {
      name: 'the refused create left no draft behind',
      path: '/api/articles?status=draft&fields[0]=title&filters[title][$eq]=Bounded',
      status: 200,
      check: ({ json }) => expect(json.meta.pagination.total).toBe(0),
    },
    {
      name: 'a draft may hold 3 keywords',
      method: 'POST',
      path: '/api/articles?status=draft&fields[0]=title&populate[seo][populate][0]=keywords',
      body: { data: { title: 'Bounded', seo: { metaTitle: 'm', keywords: words('a', 'b', 'c') } } },
      status: 201,
      save: { a: 'data.documentId' },
      check: ({ json }) => expect(json.data.seo.keywords).toHaveLength(3),
    },
    refused(
      'publishing it as stored is refused',
      'PUT',
      '/api/articles/{{a}}',
      {},
      oneError(['seo', 'keywords'], TOO_MANY_KEYWORDS, storedWords('a', 'b', 'c')),
    ),
    refused(
      'so is publishing with an unrelated edit',
      'PUT',
      '/api/articles/{{a}}',
      { title: 'Bounded 2' },
      oneError(['seo', 'keywords'], TOO_MANY_KEYWORDS, storedWords('a', 'b', 'c')),
    ),
    { name: 'nothing was published', path: '/api/articles/{{a}}', status: 404 },
    {
      name: 'the draft is unchanged',
      path: '/api/articles/{{a}}?status=draft&fields[0]=title&populate[seo][populate][0]=keywords',
      status: 200,
      check: ({ json }) =>
        expect([json.data.title, json.data.seo.keywords.map((k: { word: string }) => k.word)]).toEqual([
          'Bounded',
          ['a', 'b', 'c'],
        ]),
    },
    {
      name: 'publishing with 2 keywords goes through',
      method: 'PUT',
      path: '/api/articles/{{a}}?fields[0]=title&populate[seo][populate][0]=keywords',
      body: { data: { seo: { metaTitle: 'm', keywords: words('a', 'b') } } },
      status: 200,
      check: ({ json }) =>
        expect(json.data.seo).toEqual({
          id: ID,
          metaTitle: 'm',
          metaDescription: null,
          keywords: storedWords('a', 'b'),
        }),
    },
    refused(
      'the type without draft & publish checks the same bound on write',
      'PUT',
      '/api/global',
      { siteName: 'S', defaultSeo: { metaTitle: 'm', keywords: words('a', 'b', 'c') } },
      oneError(
        ['defaultSeo', 'keywords'],
        'defaultSeo.keywords field must have less than or equal to 2 items',
        words('a', 'b', 'c'),
      ),
    ),
    // a top-level dynamic zone, and a bound two levels down
    refused(
      'dynamic zone over its max',
      'POST',
      '/api/landings',
      { name: 'L', sections: texts('1', '2', '3', '4') },
      oneError(['sections'], 'sections field must have less than or equal to 3 items', storedTexts('1', '2', '3', '4')),
      'full',
    ),
    refused(
      'dynamic zone under its min',
      'POST',
      '/api/landings',
      { name: 'L', sections: texts('1') },
      oneError(['sections'], 'sections field must have at least 2 items', storedTexts('1')),
      'full',
    ),
    {
      name: 'an empty zone is not under its min (not required), a nested bound still counts',
      method: 'POST',
      path: '/api/landings',
      auth: 'full',
      body: { data: { name: 'L', sections: [], seo: { metaTitle: 'm', keywords: words('a', 'b', 'c') } } },
      status: 400,
      equal: oneError(['seo', 'keywords'], TOO_MANY_KEYWORDS, storedWords('a', 'b', 'c')),
    },
    {
      name: 'within bounds it publishes',
      method: 'POST',
      path: '/api/landings?fields[0]=name&populate[sections]=true',
      auth: 'full',
      body: { data: { name: 'L', sections: texts('1', '2') } },
      status: 201,
      check: ({ json }) => expect(json.data.sections).toEqual(storedTexts('1', '2')),
    },
  ],
  { files: { ...SEO, ...LANDING } },
);
