import { describe, expect, it } from 'vitest';
import type { Change } from '../events/change-bus.js';
import type { ContentType, Schema } from '../schema/types.js';
import { decodeChange, encodeChange } from './change-message.js';

const article = { uid: 'api::article.article' } as ContentType;
const schema = { contentTypes: new Map([[article.uid, article]]) } as unknown as Schema;
const at = new Date('2026-01-01T00:00:00.000Z');

describe('change messages between instances', () => {
  it('encodes a document change as in the doc comment, and reads it back', () => {
    const change: Change = {
      subject: 'document',
      kind: 'update',
      type: article,
      documentId: 'a1',
      locale: 'en',
      published: true,
      at,
    };
    const text = encodeChange(change, 'i1');
    expect(text).toBe(
      '{"v":1,"from":"i1","subject":"document","kind":"update","uid":"api::article.article","documentId":"a1","locale":"en","published":true,"at":1767225600000}',
    );
    expect(decodeChange(text, schema)).toEqual({ from: 'i1', change });
  });

  it('keeps only what names a media file', () => {
    const file = { id: 3, documentId: 'f3', name: 'a.png', url: '/uploads/a.png', formats: { small: {} }, size: 12 };
    const text = encodeChange({ subject: 'media', kind: 'create', file, at }, 'i2');
    expect(decodeChange(text, schema)).toEqual({
      from: 'i2',
      change: {
        subject: 'media',
        kind: 'create',
        file: { id: 3, documentId: 'f3', name: 'a.png', url: '/uploads/a.png' },
        at,
      },
    });
  });

  it('carries what a settings change says to reload', () => {
    const text = encodeChange({ subject: 'settings', kind: 'users-permissions-roles', at }, 'i3');
    expect(decodeChange(text, schema)).toEqual({
      from: 'i3',
      change: { subject: 'settings', kind: 'users-permissions-roles', at },
    });
  });

  it.each([
    ['not JSON', 'nope'],
    ['another version', '{"v":2,"from":"x","subject":"settings","kind":"webhooks","at":1}'],
    ['an unknown settings kind', '{"v":1,"from":"x","subject":"settings","kind":"everything","at":1}'],
    [
      'a type this instance does not have',
      '{"v":1,"from":"x","subject":"document","kind":"create","uid":"api::gone.gone","documentId":"d","locale":null,"published":false,"at":1}',
    ],
    ['no time', '{"v":1,"from":"x","subject":"settings","kind":"webhooks"}'],
  ])('ignores %s', (_what, text) => {
    expect(decodeChange(text, schema)).toBeNull();
  });
});
