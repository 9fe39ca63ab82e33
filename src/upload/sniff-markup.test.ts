import { describe, expect, it } from 'vitest';
import { decodeTextHead, sniffMarkup } from './sniff-markup.js';

const bytes = (text: string, encoding: BufferEncoding = 'latin1') => new Uint8Array(Buffer.from(text, encoding));

describe('decodeTextHead', () => {
  it.each([
    ['plain ASCII', bytes('hello\tworld\r\n'), 'hello\tworld\r\n'],
    ['UTF-8 (read as Latin-1)', bytes('café', 'utf8'), Buffer.from('café', 'utf8').toString('latin1')],
    ['a UTF-8 byte order mark is dropped', new Uint8Array([0xef, 0xbb, 0xbf, 0x3c, 0x70, 0x3e]), '<p>'],
    ['UTF-16LE with its byte order mark', new Uint8Array([0xff, 0xfe, ...Buffer.from('<svg>', 'utf16le')]), '<svg>'],
    ['UTF-16BE with its byte order mark', new Uint8Array([0xfe, 0xff, 0x00, 0x3c, 0x00, 0x70, 0x00, 0x3e]), '<p>'],
    ['an escape byte is text', bytes('\u001b[1mbold'), '\u001b[1mbold'],
    ['empty', new Uint8Array(), ''],
  ])('%s → text', (_name, head, text) => {
    expect(decodeTextHead(head)).toBe(text);
  });

  it.each([
    ['a NUL byte', bytes('MZ\u0000\u0090')],
    ['a PNG signature', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['a vertical tab', bytes('a\u000bb')],
  ])('%s → binary (null)', (_name, head) => {
    expect(decodeTextHead(head)).toBeNull();
  });
});

describe('sniffMarkup', () => {
  it.each([
    ['<!DOCTYPE html><html><body>', 'text/html'],
    ['  \n<!doctype HTML>', 'text/html'],
    ['<html lang="en">', 'text/html'],
    ['<HTML>', 'text/html'],
    ['<script>alert(1)</script>', 'text/html'],
    ['<iframe src=x>', 'text/html'],
    ['<p>a paragraph', 'text/html'],
    ['<a href="x">', 'text/html'],
    ['<b>bold</b>', 'text/html'],
    ['<body onload=alert(1)>', 'text/html'],
    ['<!-- a comment --> then text', 'text/html'],
    ['<!-- a comment that never ends', 'text/html'],
    ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml'],
    [
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: an editor -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg>',
      'image/svg+xml',
    ],
    ['<svg:svg xmlns:svg="http://www.w3.org/2000/svg">', 'image/svg+xml'],
    ['<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">', 'application/xhtml+xml'],
    ['<?xml version="1.0"?><rss version="2.0">', 'application/xml'],
    ['<?xml version="1.0"?><?xml-stylesheet href="x.xsl"?><root/>', 'application/xml'],
    ['<?xml version="1.0"?>', 'application/xml'],
  ])('%j → %s', (text, type) => {
    expect(sniffMarkup(text)).toBe(type);
  });

  it.each([
    ['plain text', 'hello world'],
    ['markup after text', 'hello <script>alert(1)</script>'],
    ['a root element no browser sniffs, without an XML declaration', '<note>hi</note>'],
    ['a lone angle bracket', '< 3 is less'],
    ['JavaScript', 'alert(document.cookie)'],
    ['JSON', '{"a":"<b>"}'],
    ['CSV', 'BMW,Audi\n1,2'],
    ['empty', ''],
  ])('%s → null', (_name, text) => {
    expect(sniffMarkup(text)).toBeNull();
  });
});
