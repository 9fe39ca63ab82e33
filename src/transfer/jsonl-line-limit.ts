import { Transform } from 'node:stream';
import { TransferError } from './transfer-error.js';

/**
 * The longest JSONL line an import reads: 8 MiB. Strapi writes one entity, link or configuration
 * item a line, and even a long article with its components stays far below; a longer line is a
 * damaged or forged archive (a gzip bomb of one line), refused before it fills the disk or the heap.
 */
export const MAX_JSONL_LINE_BYTES = 8 * 1024 * 1024;

/**
 * A pass-through stream that fails with a TransferError naming the entry and the line once a line
 * of `name` grows past `limit` bytes: `entities/entities_00001.jsonl line 3 is longer than 8 MB …`.
 */
export function jsonlLineLimit(name: string, limit = MAX_JSONL_LINE_BYTES): Transform {
  let line = 1;
  let length = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        if (length + newline - start > limit) break;
        line += 1;
        length = 0;
        start = newline + 1;
      }
      length += chunk.length - start;
      if (length > limit) {
        callback(
          new TransferError(
            `${name} line ${line} is longer than ${limit / (1024 * 1024)} MB, the most a line of an archive may hold: the archive is damaged or forged, so nothing was imported`,
          ),
        );
        return;
      }
      callback(null, chunk);
    },
  });
}
