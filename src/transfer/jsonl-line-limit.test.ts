import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { jsonlLineLimit } from './jsonl-line-limit.js';

const run = (chunks: readonly string[], limit: number) =>
  pipeline(
    Readable.from(chunks.map((chunk) => Buffer.from(chunk))),
    jsonlLineLimit('entities/x.jsonl', limit),
    async (source) => {
      for await (const _ of source);
    },
  );

describe('jsonlLineLimit', () => {
  it('passes lines up to the limit, across chunks', async () => {
    await expect(run(['1234\n12', '34\n1234'], 4)).resolves.toBeUndefined();
  });

  it('refuses the first line past the limit, naming it, whether it ends in the chunk or not', async () => {
    const message = /^entities\/x\.jsonl line 2 is longer than/;
    await expect(run(['12\n12345\n'], 4)).rejects.toThrow(message);
    await expect(run(['12\n123', '45'], 4)).rejects.toThrow(message);
  });
});
