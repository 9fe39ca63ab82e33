import { describe, expect, it } from 'vitest';
import { checkFileType, matchesAny, type TypeLists } from './check-file-type.js';
import type { ContentDetection } from './detect-content.js';

/** create-strapi-app 5.54's security lists (examples/blog's config/plugins.js). */
const TEMPLATE: TypeLists = {
  allowedTypes: [
    'image/*',
    'video/*',
    'audio/*',
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.*',
    'text/plain',
    'text/csv',
  ],
  deniedTypes: [
    'image/svg+xml',
    'application/vnd.microsoft.portable-executable',
    'application/x-msdownload',
    'application/x-msdos-program',
    'application/x-executable',
    'application/x-dosexec',
    'application/x-sh',
    'text/x-shellscript',
    'application/x-mach-binary',
  ],
};
const OPEN: TypeLists = { allowedTypes: null, deniedTypes: [] };

const text = (
  markup: 'text/html' | 'application/xhtml+xml' | 'image/svg+xml' | 'application/xml' | null = null,
  signature?: string,
): ContentDetection => ({ kind: 'text', markup, signature });
const binary = (signature?: string): ContentDetection => ({ kind: 'binary', signature });
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

type Outcome = string | { readonly refused: string };
const refused = (message: string) => ({ refused: message });
const notAllowed = (type: string) => refused(`File type '${type}' is not allowed`);
const contradicted = (file: string, declared: string, detected: string) =>
  refused(
    `${file} is declared as ${declared} but its content is ${detected}: send it with its real type and extension`,
  );
const extensionContradicted = (file: string, ext: string, type: string, detected: string) =>
  refused(
    `${file} has the extension ${ext} (${type}) but its content is ${detected}: send it with its real type and extension`,
  );

/** [file name, declared type, content, outcome with the template's lists, outcome with no lists]. */
const CASES: readonly (readonly [string, string, ContentDetection, Outcome, Outcome])[] = [
  ['notes.txt', 'text/plain', text(), 'text/plain', 'text/plain'],
  [
    'page.txt',
    'text/plain',
    text('text/html'),
    contradicted('page.txt', 'text/plain', 'text/html'),
    contradicted('page.txt', 'text/plain', 'text/html'),
  ],
  [
    'page.txt',
    'text/csv',
    text('text/html'),
    contradicted('page.txt', 'text/csv', 'text/html'),
    contradicted('page.txt', 'text/csv', 'text/html'),
  ],
  [
    'page.png',
    'image/png',
    text('text/html'),
    contradicted('page.png', 'image/png', 'text/html'),
    contradicted('page.png', 'image/png', 'text/html'),
  ],
  [
    'page.txt',
    'application/octet-stream',
    text('text/html'),
    extensionContradicted('page.txt', '.txt', 'text/plain', 'text/html'),
    extensionContradicted('page.txt', '.txt', 'text/plain', 'text/html'),
  ],
  [
    'pic.txt',
    'text/plain',
    text('image/svg+xml'),
    notAllowed('image/svg+xml'),
    contradicted('pic.txt', 'text/plain', 'image/svg+xml'),
  ],
  [
    'page.html',
    'text/plain',
    text('text/html'),
    contradicted('page.html', 'text/plain', 'text/html'),
    contradicted('page.html', 'text/plain', 'text/html'),
  ],
  ['page.html', 'text/html', text('text/html'), notAllowed('text/html'), 'text/html'],
  ['page.htm', 'application/octet-stream', text('text/html'), refused('MIME type is not allowed'), 'text/html'],
  ['page', '', text('text/html'), refused('MIME type is not allowed'), 'text/html'],
  [
    'page.xhtml',
    'application/xhtml+xml',
    text('application/xhtml+xml'),
    notAllowed('application/xhtml+xml'),
    'application/xhtml+xml',
  ],
  ['feed.xml', 'application/xml', text('application/xml'), notAllowed('application/xml'), 'application/xml'],
  ['logo.svg', 'image/svg+xml', text('image/svg+xml'), notAllowed('image/svg+xml'), 'image/svg+xml'],
  [
    'logo.svg',
    'image/svg+xml',
    text('application/xml'),
    notAllowed('image/svg+xml'),
    contradicted('logo.svg', 'image/svg+xml', 'application/xml'),
  ],
  ['app.js', 'text/plain', text(), notAllowed('application/javascript'), 'application/javascript'],
  ['app.js', 'text/javascript', text(), notAllowed('application/javascript'), 'application/javascript'],
  ['photo.png', 'image/png', binary('image/png'), 'image/png', 'image/png'],
  ['photo.jpg', 'image/jpeg', binary('image/png'), 'image/jpeg', 'image/jpeg'],
  ['photo.PNG', 'image/png', binary('image/png'), 'image/png', 'image/png'],
  ['photo', 'application/octet-stream', binary('image/png'), 'image/png', 'image/png'],
  ['data.csv', 'text/csv', text(null, 'image/bmp'), 'text/csv', 'text/csv'],
  [
    'data.csv',
    'text/csv',
    binary('image/png'),
    contradicted('data.csv', 'text/csv', 'image/png'),
    contradicted('data.csv', 'text/csv', 'image/png'),
  ],
  ['notes.txt', 'text/plain', text(null, 'application/x-msdownload'), 'text/plain', 'text/plain'],
  [
    'notes.txt',
    'text/plain',
    binary('application/x-msdownload'),
    notAllowed('application/x-msdownload'),
    contradicted('notes.txt', 'text/plain', 'application/x-msdownload'),
  ],
  [
    'photo.png',
    'image/png',
    binary('application/x-msdownload'),
    notAllowed('application/x-msdownload'),
    contradicted('photo.png', 'image/png', 'application/x-msdownload'),
  ],
  [
    'setup.exe',
    'application/octet-stream',
    binary('application/x-msdownload'),
    notAllowed('application/x-msdos-program'),
    'application/x-msdownload',
  ],
  ['report.pdf', 'application/pdf', text(null, 'application/pdf'), 'application/pdf', 'application/pdf'],
  [
    'report.pdf',
    'image/png',
    binary('application/pdf'),
    contradicted('report.pdf', 'image/png', 'application/pdf'),
    contradicted('report.pdf', 'image/png', 'application/pdf'),
  ],
  ['letter.docx', DOCX, binary('application/zip'), DOCX, DOCX],
  ['letter.docx', DOCX, binary(DOCX), DOCX, DOCX],
  [
    'sheet.xls',
    'application/vnd.ms-excel',
    binary('application/x-cfb'),
    notAllowed('application/vnd.ms-excel'),
    'application/vnd.ms-excel',
  ],
  ['letter.doc', 'application/msword', binary('application/x-cfb'), 'application/msword', 'application/msword'],
  ['letter.docx', 'application/octet-stream', binary('application/zip'), DOCX, DOCX],
  ['bundle.zip', 'application/zip', binary('application/zip'), notAllowed('application/zip'), 'application/zip'],
  ['song.m4a', 'audio/mp4', binary('video/mp4'), 'audio/mp4', 'audio/mp4'],
  ['README', 'application/octet-stream', text(), notAllowed('application/octet-stream'), 'application/octet-stream'],
  [
    'README',
    '',
    text(),
    refused('Cannot verify file type for security reasons'),
    refused('Cannot verify file type for security reasons'),
  ],
  ['archive.tar.gz', 'text/plain', text(), notAllowed('application/gzip'), 'application/gzip'],
];

describe('checkFileType', () => {
  const outcome = async (checked: ReturnType<typeof checkFileType>): Promise<Outcome> => {
    const verdict = await checked;
    return verdict.ok ? verdict.mime : { refused: verdict.error.message };
  };
  it.each(CASES)(
    '%s declared %j, bytes %j: template lists → %j, no lists → %j',
    async (fileName, declaredType, content, template, open) => {
      expect(await outcome(checkFileType({ fileName, declaredType, content }, TEMPLATE))).toEqual(template);
      expect(await outcome(checkFileType({ fileName, declaredType, content }, OPEN))).toEqual(open);
    },
  );

  it('refuses everything when the allow list is empty, as Strapi', async () => {
    const verdict = await checkFileType(
      { fileName: 'photo.png', declaredType: 'image/png', content: binary('image/png') },
      { allowedTypes: [], deniedTypes: [] },
    );
    expect(verdict.ok ? verdict.mime : verdict.error.message).toBe('MIME type is not allowed');
  });

  it('a refusal names the file, the declared and detected types and the lists', async () => {
    const verdict = await checkFileType(
      { fileName: 'pic.txt', declaredType: 'text/plain', content: text('image/svg+xml') },
      TEMPLATE,
    );
    expect(verdict.ok ? null : verdict.error.details).toEqual({
      fileName: 'pic.txt',
      declaredType: 'text/plain',
      detectedType: 'image/svg+xml',
      finalType: 'image/svg+xml',
      allowedTypes: TEMPLATE.allowedTypes,
      deniedTypes: TEMPLATE.deniedTypes,
    });
  });
});

describe('matchesAny', () => {
  it.each([
    ['image/png', ['image/*'], true],
    ['IMAGE/PNG', ['image/*'], true],
    ['image/svg+xml', ['image/svg+xml'], true],
    ['application/rss+xml', ['application/*+xml'], true],
    ['application/json', ['application/*+xml'], false],
    [DOCX, ['application/vnd.openxmlformats-officedocument.*'], true],
    [
      'application/vnd-openxmlformats-officedocumentXwhatever',
      ['application/vnd.openxmlformats-officedocument.*'],
      false,
    ],
    ['text/plain', ['text/csv'], false],
  ])('%s in %j → %s', (type, patterns, expected) => {
    expect(matchesAny(type, patterns)).toBe(expected);
  });
});
