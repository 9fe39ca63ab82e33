import { describe, expect, it } from 'vitest';
import { archiveFormat } from './archive-reader.js';
import { archiveFileName } from './archive-writer.js';
import { classifyEntry, jsonlEntryName, UnsafeEntryError } from './archive-layout.js';

describe('archive entry names', () => {
  it('classifies what a Strapi archive holds', () => {
    expect(classifyEntry('metadata.json')).toEqual({ kind: 'metadata' });
    expect(classifyEntry('entities/entities_00001.jsonl')).toEqual({ kind: 'jsonl', stage: 'entities', index: 1 });
    expect(classifyEntry('links/links_00012.jsonl')).toEqual({ kind: 'jsonl', stage: 'links', index: 12 });
    expect(classifyEntry('assets/uploads/a_1f2e3d.png')).toEqual({ kind: 'asset', filename: 'a_1f2e3d.png' });
    expect(classifyEntry('assets/metadata/a_1f2e3d.png.json')).toEqual({
      kind: 'asset-metadata',
      filename: 'a_1f2e3d.png',
    });
    expect(classifyEntry('assets\\uploads\\win.png')).toEqual({ kind: 'asset', filename: 'win.png' });
    expect(classifyEntry('README.txt')).toEqual({ kind: 'other' });
    expect(classifyEntry('entities/links_00001.jsonl')).toEqual({ kind: 'other' });
  });

  it.each([
    '../escape.txt',
    'assets/uploads/../../etc/passwd',
    '/etc/passwd',
    'C:\\Windows\\evil.dll',
    'assets/uploads/deep/file.png',
    'assets/uploads/.hidden',
    'assets/metadata/file.png',
    'assets/other/file.png',
    'assets/uploads/',
  ])('refuses %j', (name) => {
    expect(() => classifyEntry(name)).toThrow(UnsafeEntryError);
  });

  it('numbers JSONL files as Strapi does', () => {
    expect(jsonlEntryName('schemas', 1)).toBe('schemas/schemas_00001.jsonl');
    expect(jsonlEntryName('configuration', 123)).toBe('configuration/configuration_00123.jsonl');
  });
});

describe('archive file names', () => {
  it('adds .tar, .gz and .enc as strapi export does, once', () => {
    expect(archiveFileName('backup', { compress: true, key: 'k' })).toBe('backup.tar.gz.enc');
    expect(archiveFileName('backup', { compress: true })).toBe('backup.tar.gz');
    expect(archiveFileName('backup', { compress: false })).toBe('backup.tar');
    expect(archiveFileName('backup.tar.gz', { compress: true })).toBe('backup.tar.gz');
  });

  it('reads the format from the name, as strapi import does', () => {
    expect(archiveFormat('/x/a.tar.gz.enc')).toEqual({ compressed: true, encrypted: true });
    expect(archiveFormat('a.tar.gz')).toEqual({ compressed: true, encrypted: false });
    expect(archiveFormat('a.tar')).toEqual({ compressed: false, encrypted: false });
    expect(archiveFormat('a.tar.enc')).toEqual({ compressed: false, encrypted: true });
    expect(() => archiveFormat('a.zip')).toThrow(/must end in \.tar, \.tar\.gz or \.tar\.gz\.enc/);
  });
});
