import { expect } from 'vitest';
import { scenario, type Step, type Vars } from '../support/scenario.js';

/*
 * Filters through `localizations` (issue 16, item 9). Strapi 5 joins the table to itself on
 * `document_id` alone, so `filters[localizations][…]` matches a document when any of its rows does:
 * its own row, its other locales, drafts and published versions alike. Every expected list below is
 * what real Strapi 5.54 answered for the same requests on the same content (SQLite, PostgreSQL and
 * MariaDB answered alike), each list sorted by title in the requested locale.
 *
 *   apple   en "Apple pie" (published), en draft "Apple tart", fr "Tarte aux pommes" (published)
 *   banana  en "Banana split" (published)
 *   cherry  en "Cherry draft" and fr "Cerise brouillon", drafts only
 *   date    en "Date cake" (published), fr "Datte" (published) whose draft is "Datte modifiee"
 *   fig     fr "Figue" (published), no en version
 */

const post = (name: string, query: string, title: string): Step => ({
  name: `seed: ${name} ${query || 'en'} "${title}"`,
  method: 'POST',
  path: `/api/articles${query}`,
  body: { data: { title } },
  status: 201,
  save: { [name]: 'data.documentId' },
});
const put = (name: string, query: string, title: string): Step => ({
  name: `seed: ${name} ${query} "${title}"`,
  method: 'PUT',
  path: `/api/articles/{{${name}}}${query}`,
  body: { data: { title } },
  status: 200,
});

const SEED: Step[] = [
  post('apple', '', 'Apple pie'),
  put('apple', '?locale=fr', 'Tarte aux pommes'),
  put('apple', '?status=draft', 'Apple tart'),
  post('banana', '', 'Banana split'),
  post('cherry', '?status=draft', 'Cherry draft'),
  put('cherry', '?locale=fr&status=draft', 'Cerise brouillon'),
  post('date', '', 'Date cake'),
  put('date', '?locale=fr', 'Datte'),
  put('date', '?locale=fr&status=draft', 'Datte modifiee'),
  post('fig', '?locale=fr', 'Figue'),
];

/** filter under `filters[localizations]` → documents listed for en published, en draft, fr published, fr draft. */
const CASES: readonly (readonly [
  filter: string,
  enPublished: string,
  enDraft: string,
  frPublished: string,
  frDraft: string,
])[] = [
  ['[title][$containsi]=apple', 'apple', 'apple', 'apple', 'apple'],
  ['[title][$containsi]=tart', 'apple', 'apple', 'apple', 'apple'],
  ['[title][$containsi]=pie', 'apple', 'apple', 'apple', 'apple'],
  ['[title][$containsi]=pommes', 'apple', 'apple', 'apple', 'apple'],
  ['[title][$containsi]=banana', 'banana', 'banana', '', ''],
  ['[title][$containsi]=cherry', '', 'cherry', '', 'cherry'],
  ['[title][$containsi]=cerise', '', 'cherry', '', 'cherry'],
  ['[title][$containsi]=datte', 'date', 'date', 'date', 'date'],
  ['[title][$containsi]=modifiee', 'date', 'date', 'date', 'date'],
  ['[title][$containsi]=figue', '', '', 'fig', 'fig'],
  ['[title][$containsi]=zzz', '', '', '', ''],
  ['[locale][$eq]=fr', 'apple,date', 'apple,cherry,date', 'date,fig,apple', 'cherry,date,fig,apple'],
  ['[locale][$eq]=en', 'apple,banana,date', 'apple,banana,cherry,date', 'date,apple', 'cherry,date,apple'],
  ['[title][$null]=true', '', '', '', ''],
  ['[id][$null]=true', '', '', '', ''],
  ['[title][$eq]=Date%20cake', 'date', 'date', 'date', 'date'],
  [
    '[title][$ne]=Date%20cake',
    'apple,banana,date',
    'apple,banana,cherry,date',
    'date,fig,apple',
    'cherry,date,fig,apple',
  ],
  [
    '[publishedAt][$null]=true',
    'apple,banana,date',
    'apple,banana,cherry,date',
    'date,fig,apple',
    'cherry,date,fig,apple',
  ],
  ['[publishedAt][$notNull]=true', 'apple,banana,date', 'apple,banana,date', 'date,fig,apple', 'date,fig,apple'],
];

/** Combinations, on the en list: query → documents for published, draft. */
const COMBINATIONS: readonly (readonly [label: string, query: string, published: string, draft: string])[] = [
  [
    '$not over localizations (each row tested)',
    'filters[$not][localizations][title][$containsi]=apple',
    'apple,banana,date',
    'apple,banana,cherry,date',
  ],
  [
    '$or with a field of the row',
    'filters[$or][0][localizations][title][$containsi]=datte&filters[$or][1][title][$eq]=Banana%20split',
    'banana,date',
    'banana,date',
  ],
  [
    '$and of two localizations conditions (any rows each)',
    'filters[$and][0][localizations][title][$containsi]=apple&filters[$and][1][localizations][title][$containsi]=pommes',
    'apple',
    'apple',
  ],
];

const listed =
  (expected: string) =>
  (response: { json: { data: { documentId: string }[] } }, { vars }: { vars: Vars }) =>
    expect(response.json.data.map((entry) => entry.documentId)).toEqual(
      expected ? expected.split(',').map((name) => vars[name]) : [],
    );

const QUERIES: Step[] = [
  ...CASES.flatMap(([filter, ...expected]) =>
    (['en published', 'en draft', 'fr published', 'fr draft'] as const).map((label, index): Step => {
      const [locale, status] = label.split(' ');
      return {
        name: `${label}: filters[localizations]${decodeURIComponent(filter)} → ${expected[index] || 'none'}`,
        path: `/api/articles?locale=${locale}&status=${status}&sort=title&fields[0]=title&filters[localizations]${filter}`,
        status: 200,
        check: listed(expected[index] as string),
      };
    }),
  ),
  ...COMBINATIONS.flatMap(([label, query, published, draft]) =>
    (
      [
        ['published', published],
        ['draft', draft],
      ] as const
    ).map(([status, expected]): Step => ({
      name: `en ${status}: ${label} → ${expected || 'none'}`,
      path: `/api/articles?locale=en&status=${status}&sort=title&fields[0]=title&${query}`,
      status: 200,
      check: listed(expected),
    })),
  ),
];

scenario('filters through localizations match every row of the document, as in Strapi 5', [...SEED, ...QUERIES]);
