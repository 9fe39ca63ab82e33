import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../core/errors.js';
import { folderPath, folderTree, isFolderOrChild, rebasePath } from './folder-paths.js';
import { parseBulkInput, parseFolderInput, parseLibraryFileInfo } from './media-library-body.js';

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

/** The `details.errors` messages of the 400 `run` throws. */
function problems(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const errors = (error as ValidationError).details?.errors as { message: string }[] | undefined;
    return errors?.map((entry) => entry.message) ?? [(error as Error).message];
  }
  throw new Error('expected a ValidationError');
}

describe('parseFolderInput', () => {
  it('reads a name and a parent id (a number or a string of digits)', () => {
    expect(parseFolderInput({ name: 'Photos', parent: null }, true)).toEqual({ name: 'Photos', parent: null });
    expect(parseFolderInput({ name: 'Photos', parent: '7' }, true)).toEqual({ name: 'Photos', parent: 7 });
    expect(parseFolderInput({ parent: 3 }, false)).toEqual({ parent: 3 });
  });

  it.each([
    [{}, ['name is a required field']],
    [{ name: 'a/b' }, ['name cannot contain slashes']],
    [{ name: ' a' }, ['name cannot start or end with a whitespace']],
    [{ name: 3 }, ['name must be a `string` type, but the final value was: `3`.']],
    [{ name: 'a', parent: 'x' }, ['parent must be a valid ID']],
    [{ name: 'a', color: 'red' }, ['this field has unspecified keys: color']],
  ])('%j → 400 %j', (body, expected) => {
    expect(problems(() => parseFolderInput(body, true))).toEqual(expected);
  });
});

describe('parseBulkInput', () => {
  it('reads the ids, without duplicates', () => {
    expect(parseBulkInput({ fileIds: [1, '2', 1], destinationFolderId: null }, true)).toEqual({
      fileIds: [1, 2],
      folderIds: [],
      destinationFolderId: null,
    });
  });

  it.each([
    [{ fileIds: [1] }, true, ['destinationFolderId must be defined']],
    [{ fileIds: 'x' }, false, ['fileIds must be a `array` type, but the final value was: `"x"`.']],
    [{ folderIds: [0] }, false, ['folderIds[0] must be a valid ID']],
    [{ folderIds: [], destinationFolderId: 1 }, false, ['this field has unspecified keys: destinationFolderId']],
  ])('%j (move: %s) → 400 %j', (body, move, expected) => {
    expect(problems(() => parseBulkInput(body, move))).toEqual(expected);
  });
});

describe('parseLibraryFileInfo', () => {
  it('adds each file’s folder to what the content API reads', () => {
    expect(parseLibraryFileInfo('{"name":"a.png","folder":3}', 1)).toEqual([{ name: 'a.png', folder: 3 }]);
    expect(parseLibraryFileInfo(['{"folder":null}', '{"caption":"c"}'], 2)).toEqual([
      { folder: null },
      { caption: 'c' },
    ]);
    expect(parseLibraryFileInfo(undefined, 1)).toEqual([{}]);
  });

  it('refuses a folder that is not an id', () => {
    expect(problems(() => parseLibraryFileInfo('{"folder":"abc"}', 1))).toEqual(['fileInfo.folder must be a valid ID']);
  });
});
