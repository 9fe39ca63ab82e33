import { describe, expect, it } from 'vitest';
import { readConditionAnswer } from './condition-query.js';

describe('readConditionAnswer', () => {
  it('reads booleans as every row or none, and other non-objects as left out', () => {
    expect(readConditionAnswer(true)).toEqual({ kind: 'all' });
    expect(readConditionAnswer(false)).toEqual({ kind: 'none' });
    for (const answer of [undefined, null, 'yes', 3]) expect(readConditionAnswer(answer)).toEqual({ kind: 'ignored' });
  });

  it("turns Strapi's own two conditions' queries into REST filters", () => {
    expect(readConditionAnswer({ 'createdBy.id': 4 })).toEqual({ kind: 'where', where: { createdBy: { id: 4 } } });
    expect(readConditionAnswer({ 'createdBy.roles': { $elemMatch: { id: { $in: [1, 2] } } } })).toEqual({
      kind: 'where',
      where: { createdBy: { roles: { id: { $in: [1, 2] } } } },
    });
  });

  it('renames the operators sift and the REST filters spell differently, and merges dotted keys', () => {
    const when = new Date('2026-01-02T03:04:05.000Z');
    expect(
      readConditionAnswer({
        'author.name': 'Ann',
        'author.email': { $ne: null },
        views: { $nin: [1, 2], $gte: 0 },
        slug: { $exists: true },
        publishDate: { $lt: when },
        $or: [{ isFeatured: true }, { 'tags.name': { $eq: 'x' } }],
      }),
    ).toEqual({
      kind: 'where',
      where: {
        author: { name: 'Ann', email: { $ne: null } },
        views: { $notIn: [1, 2], $gte: 0 },
        slug: { $notNull: true },
        publishDate: { $lt: '2026-01-02T03:04:05.000Z' },
        $or: [{ isFeatured: true }, { tags: { name: { $eq: 'x' } } }],
      },
    });
  });

  it('refuses what sift would not apply, naming where', () => {
    const problem = (answer: unknown) => {
      const read = readConditionAnswer(answer);
      return read.kind === 'invalid' ? read.problem : read.kind;
    };
    expect(problem({ title: { $regex: 'a' } })).toMatch(
      /^answers a query Cairn cannot apply: title: \$regex is not an operator/,
    );
    expect(problem({ $nor: [{ a: 1 }] })).toMatch(/\$nor is not an operator/);
    expect(problem({ tags: ['a'] })).toMatch(/tags is compared with a list \(use \{ \$in: \[\.\.\.\] \}\)/);
    expect(problem({ 'author.id': undefined })).toMatch(/author\.id has no value/);
    expect(problem({ views: { $gt: 1, other: 2 } })).toMatch(/views mixes operators with the field "other"/);
    expect(problem({ views: { $exists: 'yes' } })).toMatch(/\$exists takes true or false/);
    expect(problem([{ a: 1 }])).toMatch(/answered a list/);
  });
});
