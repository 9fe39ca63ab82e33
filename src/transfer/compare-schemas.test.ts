import { describe, expect, it } from 'vitest';
import { compareSchemas, formatSchemaDiffs } from './compare-schemas.js';

const article = (attributes: Record<string, unknown>) => ({
  uid: 'api::article.article',
  kind: 'collectionType',
  attributes,
});

describe("compareSchemas (Strapi's strict strategy)", () => {
  it('finds nothing between equal schemas, whatever the key order', () => {
    const a = article({ title: { type: 'string', maxLength: 10 } });
    const b = {
      attributes: { title: { maxLength: 10, type: 'string' } },
      kind: 'collectionType',
      uid: 'api::article.article',
    };
    expect(compareSchemas([a], [b]).size).toBe(0);
  });

  it('ignores private, required, configurable and default on attributes only', () => {
    const a = article({ title: { type: 'string', required: true, private: true, default: 'x', configurable: false } });
    const b = article({ title: { type: 'string' } });
    expect(compareSchemas([a], [b]).size).toBe(0);
    const other = compareSchemas([{ ...a, options: { required: true } }], [b]);
    expect(other.get('api::article.article')).toEqual([
      { kind: 'deleted', path: ['options'], value: { required: true } },
    ]);
  });

  it("reports per type and attribute, changed values first, then the archive's, then the project's", () => {
    const archive = [
      article({ title: { type: 'text' }, subtitle: { type: 'string' }, tags: { type: 'relation', enum: ['a', 'b'] } }),
      { uid: 'api::ghost.ghost', attributes: {} },
    ];
    const project = [
      article({ title: { type: 'string' }, stamp: { type: 'timestamp' }, tags: { type: 'relation', enum: ['a'] } }),
    ];
    expect(formatSchemaDiffs(compareSchemas(archive, project))).toBe(
      [
        '- api::article.article:',
        '  - attributes.title.type differs: "text" in the archive, "string" in the project',
        '  - attributes.subtitle exists in the archive but not in the project',
        '  - attributes.tags.enum.1 exists in the archive but not in the project',
        '  - attributes.stamp exists in the project but not in the archive',
        '- api::ghost.ghost:',
        '  - (the whole type) exists in the archive but not in the project',
      ].join('\n'),
    );
  });
});
