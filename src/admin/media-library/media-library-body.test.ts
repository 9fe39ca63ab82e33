import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../core/errors.js';
import { plainStars } from './library-reads.js';
import { parseBulkInput, parseFolderInput, parseLibraryFileInfo } from './media-library-body.js';

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

describe('plainStars', () => {
  it('reads a relation’s `*` as `true`, keeping `populate: *` in its options', () => {
    expect(plainStars({ parent: { populate: { parent: '*' } } })).toEqual({ parent: { populate: { parent: true } } });
    expect(plainStars({ parent: '*', folder: { populate: '*' } })).toEqual({ parent: true, folder: { populate: '*' } });
  });
});
