import { describe, expect, it } from 'vitest';
import { rawCollectionType } from '../../test/support/unit.js';
import { buildSchema } from '../schema/build-schema.js';
import type { RawContentType } from '../schema/raw-types.js';
import { publicRoleNotice } from './public-role-notice.js';

const nothing = { byType: new Map<string, ReadonlySet<string>>(), byId: new Map<number, ReadonlySet<string>>() };
const single = (uid: string, name: string): RawContentType => {
  const raw = rawCollectionType(uid, name, `${name}s`, { title: { type: 'string' } });
  return { ...raw, definition: { ...raw.definition, kind: 'singleType' } };
};
const example = (types: RawContentType[]) => {
  const [notice] = publicRoleNotice(nothing, new Map(), buildSchema(types, []));
  return notice?.slice(notice.indexOf('e.g. '));
};

describe('the notice for a Public role without permissions', () => {
  it("names a collection type's find and findOne, even when a single type comes first", () => {
    expect(
      example([
        single('api::about.about', 'about'),
        rawCollectionType('api::article.article', 'article', 'articles', { title: { type: 'string' } }),
      ]),
    ).toBe("e.g. module.exports = { public: ['api::article.article.find', 'api::article.article.findOne'] }");
  });

  it('names only find for a project of single types, which have no findOne route', () => {
    expect(example([single('api::about.about', 'about')])).toBe(
      "e.g. module.exports = { public: ['api::about.about.find'] }",
    );
  });

  it('says nothing when config/permissions lists Public', () => {
    expect(publicRoleNotice(nothing, new Map([['public', []]]), buildSchema([], []))).toEqual([]);
  });
});
