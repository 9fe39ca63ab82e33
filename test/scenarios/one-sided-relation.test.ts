import { expect } from 'vitest';
import { dbStep, scenario } from '../support/scenario.js';

/*
 * A relation with mappedBy whose other side has no inversedBy (found in a real public project):
 * Strapi 5.54 starts, the owner (`book.shelf`, a one-way manyToOne with its own join table)
 * works, and the mappedBy side (`shelf.books`) has no join table: populating it answers without
 * it, writing it stores nothing. Cairn starts with one warning naming both sides and serves the
 * pair the same way.
 */

const coreFiles = (name: string) => ({
  [`src/api/${name}/routes/${name}.js`]: `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::${name}.${name}');\n`,
  [`src/api/${name}/controllers/${name}.js`]: `module.exports = require('@strapi/strapi').factories.createCoreController('api::${name}.${name}');\n`,
});
const model = (singularName: string, pluralName: string, attributes: object) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: pluralName,
    info: { singularName, pluralName, displayName: singularName },
    options: { draftAndPublish: false },
    attributes,
  });

const FILES = {
  ...coreFiles('shelf'),
  ...coreFiles('book'),
  'src/api/shelf/content-types/shelf/schema.json': model('shelf', 'shelves', {
    name: { type: 'string' },
    books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'shelf' },
  }),
  'src/api/book/content-types/book/schema.json': model('book', 'books', {
    title: { type: 'string' },
    shelf: { type: 'relation', relation: 'manyToOne', target: 'api::shelf.shelf' },
  }),
};

const WARNING =
  'src/api/shelf/content-types/shelf/schema.json: attribute "books" declares mappedBy "shelf", but api::book.book\'s "shelf" has no inversedBy: "books"; as in Strapi, api::shelf.shelf.books holds no links (populating it shows nothing, writing it is ignored) while api::book.book.shelf works on its own. Add inversedBy: "books" to it to link both sides';

scenario(
  'a mappedBy relation whose other side has no inversedBy (Strapi tolerates it)',
  [
    dbStep('the server started, with one warning naming both sides', async ({ server }) => {
      expect(server.app.project.warnings.filter((warning) => warning.includes('mappedBy'))).toEqual([WARNING]);
    }),
    dbStep('the owner has its join table, the mappedBy side none', async ({ server }) => {
      const { db } = server.app;
      const tables = new Set((await db.all(db.dialect.introspector.columnsQuery)).map((row) => String(row.table_name)));
      expect(tables).toContain('books_shelf_lnk');
      expect([...tables].filter((table) => table.startsWith('shelves_'))).toEqual([]);
    }),
    {
      name: 'create a shelf',
      method: 'POST',
      path: '/api/shelves',
      auth: 'full',
      body: { data: { name: 'Fiction' } },
      status: 201,
      save: { shelf: 'data.documentId' },
    },
    {
      name: 'create a book on it through the owning side',
      method: 'POST',
      path: '/api/books?populate=shelf',
      auth: 'full',
      body: { data: { title: 'Dune', shelf: '{{shelf}}' } },
      status: 201,
      save: { dune: 'data.documentId' },
      match: { data: { title: 'Dune', shelf: { documentId: '{{shelf}}', name: 'Fiction' } } },
    },
    {
      name: 'the owning side filters by the shelf',
      path: '/api/books?filters[shelf][name]=Fiction&fields[0]=title',
      auth: 'full',
      status: 200,
      match: { data: [{ title: 'Dune' }], meta: { pagination: { total: 1 } } },
    },
    {
      name: 'populating the mappedBy side answers without it (no join table to read)',
      path: '/api/shelves/{{shelf}}?populate=books',
      auth: 'full',
      status: 200,
      check: ({ json }) => {
        expect(json.data.name).toBe('Fiction');
        expect(json.data).not.toHaveProperty('books');
      },
    },
    {
      name: 'the object form and populate=* too',
      path: '/api/shelves?populate[books]=true',
      auth: 'full',
      status: 200,
      check: ({ json }) => expect(json.data[0]).not.toHaveProperty('books'),
    },
    {
      name: 'populate=*',
      path: '/api/shelves?populate=*',
      auth: 'full',
      status: 200,
      check: ({ json }) => expect(json.data[0]).not.toHaveProperty('books'),
    },
    {
      name: 'a second book, on no shelf',
      method: 'POST',
      path: '/api/books',
      auth: 'full',
      body: { data: { title: 'Emma' } },
      status: 201,
      save: { emma: 'data.documentId' },
    },
    {
      name: 'writing the mappedBy side is accepted and ignored',
      method: 'PUT',
      path: '/api/shelves/{{shelf}}',
      auth: 'full',
      body: { data: { name: 'Novels', books: { connect: ['{{emma}}'] } } },
      status: 200,
      match: { data: { name: 'Novels' } },
    },
    {
      name: 'the second book is still on no shelf, the first still on its own',
      path: '/api/books?populate=shelf&sort=title&fields[0]=title',
      auth: 'full',
      status: 200,
      match: {
        data: [
          { title: 'Dune', shelf: { documentId: '{{shelf}}', name: 'Novels' } },
          { title: 'Emma', shelf: null },
        ],
      },
    },
  ],
  { files: FILES },
);
