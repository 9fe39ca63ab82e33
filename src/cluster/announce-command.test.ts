import { describe, expect, it } from 'vitest';
import { SETTINGS_CHANGE_KINDS } from '../events/change-bus.js';
import type { Config } from '../config/config.js';
import type { ContentType, Schema } from '../schema/types.js';
import { announceCommandChanges, everythingChanged, settingsChanged } from './announce-command.js';
import { decodeChange, encodeChange } from './change-message.js';

const article = { uid: 'api::article.article' } as ContentType;
const author = { uid: 'api::author.author' } as ContentType;
const schema = {
  contentTypes: new Map([
    [article.uid, article],
    [author.uid, author],
  ]),
} as unknown as Schema;

describe('what a cairn command announces', () => {
  it('an import: every settings kind, one change per content type and a media change, each one an instance reads back', () => {
    const changes = everythingChanged(schema);
    expect(
      changes.map((change) => [change.subject, change.subject === 'document' ? change.type.uid : change.kind]),
    ).toEqual([
      ...SETTINGS_CHANGE_KINDS.map((kind) => ['settings', kind]),
      ['document', 'api::article.article'],
      ['document', 'api::author.author'],
      ['media', 'update'],
    ]);
    for (const change of changes)
      expect(decodeChange(encodeChange(change, 'cairn-command:1'), schema)?.change).toEqual(change);
  });

  it('without Redis in the project, nothing: no database session, no warning', async () => {
    const warnings: string[] = [];
    // A database no session could reach: opening one would throw (and warn).
    const config = {
      cluster: { redis: null, redisPrefix: 'cairn:' },
      database: { client: 'postgres', host: '127.0.0.1', port: 1 },
    } as unknown as Config;
    await announceCommandChanges(config, [settingsChanged('api-tokens')], (line) => warnings.push(line));
    expect(warnings).toEqual([]);
  });
});
