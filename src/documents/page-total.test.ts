import { describe, expect, it } from 'vitest';
import type { Condition, SelectPlan } from '../plan/plan-types.js';
import type { ContentType } from '../schema/types.js';
import { totalInPage } from './page-total.js';

const type = (indexes: ContentType['indexes']) => ({ indexes }) as unknown as ContentType;
const related: Condition = {
  kind: 'inSelect',
  column: { alias: 't0', column: 'id' },
  selected: { alias: 'l1', column: 'file_id' },
  from: { table: 'folders', alias: 't1' },
  where: { kind: 'true' },
};
const own: Condition = {
  kind: 'compare',
  column: { alias: 't0', column: 'ext' },
  op: 'eq',
  value: '.png',
  valueKind: 'string',
};
const plan = (where: Condition | null, column: string): SelectPlan =>
  ({
    from: { table: 'files', alias: 't0' },
    columns: [],
    where,
    orderBy: [{ column: { alias: 't0', column }, direction: 'asc', kind: 'string' }],
    limit: 25,
    offset: 0,
  }) as SelectPlan;
const nameIndexed = type([{ name: 'files_name_index', columns: ['name'] }]);

describe('totalInPage: the page carries its total where a COUNT would redo the filter and the sort reads every match', () => {
  it('a filter through related rows, sorted by a column no index leads with', () => {
    expect(totalInPage(nameIndexed, plan(related, 'caption'))).toBe(true);
    expect(
      totalInPage(nameIndexed, plan({ kind: 'not', child: { kind: 'and', children: [own, related] } }, 'caption')),
    ).toBe(true);
  });
  it('not when an index gives the order: the page stops at its last row', () => {
    expect(totalInPage(nameIndexed, plan(related, 'name'))).toBe(false);
    expect(totalInPage(type([]), plan(related, 'document_id'))).toBe(false);
  });
  it('not for a filter on the row alone, nor without a filter', () => {
    expect(totalInPage(nameIndexed, plan(own, 'caption'))).toBe(false);
    expect(totalInPage(nameIndexed, plan(null, 'caption'))).toBe(false);
  });
});
