import { isRecord } from '../core/is-record.js';
import {
  SETTINGS_CHANGE_KINDS,
  type Change,
  type DocumentChangeKind,
  type MediaChange,
  type SettingsChangeKind,
} from '../events/change-bus.js';
import type { Schema } from '../schema/types.js';

/** The version of the messages instances exchange; a message of another version is ignored. */
export const CHANGE_MESSAGE_VERSION = 1;

const DOCUMENT_KINDS: readonly DocumentChangeKind[] = ['create', 'update', 'delete', 'publish', 'unpublish', 'discard'];
const MEDIA_KINDS: readonly MediaChange['kind'][] = ['create', 'update', 'delete'];
/** What a remote media change keeps of the file: enough to name it, never its content. */
const MEDIA_FIELDS = ['id', 'documentId', 'name', 'url'] as const;

/**
 * One change as it crosses to the other instances: small (a document change names its type,
 * document, locale and kind; a settings change says what to reload), JSON, versioned, and
 * signed by the instance that made it, which ignores its own.
 *
 * `encodeChange({ subject: 'document', kind: 'update', type: article, documentId: 'a1', locale: 'en', published: true, at }, 'i1')`
 * → `{"v":1,"from":"i1","subject":"document","kind":"update","uid":"api::article.article","documentId":"a1","locale":"en","published":true,"at":1767225600000}`
 */
export function encodeChange(change: Change, from: string): string {
  const head = { v: CHANGE_MESSAGE_VERSION, from, subject: change.subject, kind: change.kind };
  const at = change.at.getTime();
  switch (change.subject) {
    case 'document': {
      const { type, documentId, locale, published } = change;
      return JSON.stringify({ ...head, uid: type.uid, documentId, locale, published, at });
    }
    case 'media': {
      const file = Object.fromEntries(
        MEDIA_FIELDS.filter((key) => key in change.file).map((key) => [key, change.file[key]]),
      );
      return JSON.stringify({ ...head, file, at });
    }
    case 'settings':
      return JSON.stringify({ ...head, at });
  }
}

/** A message read back: who sent it, and the change as the bus carries it. */
export interface ChangeMessage {
  readonly from: string;
  readonly change: Change;
}

/**
 * The inverse of {@link encodeChange}, against this instance's schema. Null for what cannot be
 * used: not JSON, another version, an unknown kind, or a content type this instance does not
 * have (an instance started with another model, during a rolling deploy).
 */
export function decodeChange(text: string, schema: Schema): ChangeMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(message) || message.v !== CHANGE_MESSAGE_VERSION || typeof message.from !== 'string') return null;
  const { from, kind } = message;
  if (typeof message.at !== 'number') return null;
  const at = new Date(message.at);
  switch (message.subject) {
    case 'document': {
      const type = typeof message.uid === 'string' ? schema.contentTypes.get(message.uid) : undefined;
      const { documentId, locale } = message;
      if (!type || !DOCUMENT_KINDS.includes(kind as DocumentChangeKind) || typeof documentId !== 'string') return null;
      if (locale !== null && typeof locale !== 'string') return null;
      const change: Change = {
        subject: 'document',
        kind: kind as DocumentChangeKind,
        type,
        documentId,
        locale,
        published: message.published === true,
        at,
      };
      return { from, change };
    }
    case 'media':
      if (!MEDIA_KINDS.includes(kind as MediaChange['kind']) || !isRecord(message.file)) return null;
      return { from, change: { subject: 'media', kind: kind as MediaChange['kind'], file: message.file, at } };
    case 'settings':
      if (!SETTINGS_CHANGE_KINDS.includes(kind as SettingsChangeKind)) return null;
      return { from, change: { subject: 'settings', kind: kind as SettingsChangeKind, at } };
    default:
      return null;
  }
}
