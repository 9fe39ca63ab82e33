import { describe, expect, it } from 'vitest';
import { folderPath, folderTree, isFolderOrChild, rebasePath } from './folder-paths.js';

describe('folderPath', () => {
  it.each([
    [null, 3, '/3'],
    ['/', 3, '/3'],
    ['/1', 4, '/1/4'],
    ['/1/2', 5, '/1/2/5'],
  ])('%s + %s → %s', (parent, pathId, expected) => {
    expect(folderPath(parent, pathId)).toBe(expected);
  });
});

describe('isFolderOrChild', () => {
  it.each([
    ['/1', '/1', true],
    ['/1/2', '/1', true],
    ['/1/2/3', '/1', true],
    ['/12', '/1', false],
    ['/2/1', '/1', false],
    ['/1', '/1/2', false],
  ])('%s under %s → %s', (path, ancestor, expected) => {
    expect(isFolderOrChild(path, ancestor)).toBe(expected);
  });
});

describe('rebasePath', () => {
  it.each([
    ['/1/2/7', '/1/2', '/3/2', '/3/2/7'],
    ['/1/2', '/1/2', '/2', '/2'],
    ['/1/2', '/1', '/5/1', '/5/1/2'],
    ['/12/3', '/1', '/5/1', '/12/3'],
  ])('%s moved from %s to %s → %s', (path, from, to, expected) => {
    expect(rebasePath(path, from, to)).toBe(expected);
  });
});

describe('folderTree', () => {
  it('nests folders under their parents, each level sorted by name', () => {
    expect(
      folderTree([
        { id: 1, name: 'b', parentId: null },
        { id: 2, name: 'a', parentId: null },
        { id: 3, name: 'z', parentId: 1 },
        { id: 4, name: 'c', parentId: 1 },
        { id: 5, name: 'deep', parentId: 4 },
        { id: 6, name: 'orphan', parentId: 99 },
      ]),
    ).toEqual([
      { id: 2, name: 'a', children: [] },
      {
        id: 1,
        name: 'b',
        children: [
          { id: 4, name: 'c', children: [{ id: 5, name: 'deep', children: [] }] },
          { id: 3, name: 'z', children: [] },
        ],
      },
    ]);
  });
});
