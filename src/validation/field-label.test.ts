import { describe, expect, it } from 'vitest';
import { fieldLabel } from './field-label.js';

describe('fieldLabel', () => {
  it.each<[readonly string[], string]>([
    [['title'], 'title'],
    [['seo', 'metaTitle'], 'seo.metaTitle'],
    [['seo', 'keywords'], 'seo.keywords'],
    [['blocks', '0'], 'blocks[0]'],
    [['blocks', '12'], 'blocks[12]'],
    [['blocks', '0', '__component'], 'blocks[0].__component'],
    [['seo', 'keywords', '0', 'word'], 'seo.keywords[0].word'],
    [['blocks', '1', 'items', '2', 'name'], 'blocks[1].items[2].name'],
    [['matrix', '0', '1'], 'matrix[0][1]'],
    [['a1', 'b2'], 'a1.b2'],
    [[], ''],
  ])('%j → %s', (path, label) => {
    expect(fieldLabel(path)).toBe(label);
  });
});
