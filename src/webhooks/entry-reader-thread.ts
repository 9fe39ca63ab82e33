/**
 * The entry reader thread's program (see thread-entry-reader.ts): opens its own reading
 * connection to the server's database and builds entry event bodies, one message each way.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseConfig } from '../config/config.js';
import { openDatabase } from '../db/open-database.js';
import type { Schema } from '../schema/types.js';
import { createEntryReader, type EntryReaderConfig } from './entry-reader.js';
import type { ReaderReply, ReaderRequest } from './thread-entry-reader.js';

/** What the thread is started with (structured-cloned from the server's loaded project). */
export interface ReaderThreadData {
  readonly schema: Schema;
  readonly database: DatabaseConfig;
  readonly config: EntryReaderConfig;
}

const port = parentPort;
if (!port) throw new Error('entry-reader-thread.ts runs as a worker thread');
const data = workerData as ReaderThreadData;
yieldToRequests();

// One connection on PostgreSQL and MySQL: the thread reads one message at a time (below), and
// must not take the server's connections.
const database = data.database.client === 'sqlite' ? data.database : { ...data.database, pool: { min: 0, max: 1 } };
const opening = openDatabase(database, undefined, { readOnly: true });
const reply = (message: ReaderReply) => port.postMessage(message);
opening.then(
  () => reply({ kind: 'ready' }),
  (error: unknown) => reply({ kind: 'failed', error: describe(error) }),
);
const reading = opening.then((db) => ({ db, reader: createEntryReader({ schema: data.schema, exec: db, dialect: db.dialect }, data.config) }));

// Messages are handled one after the other, in the order they came: an event's entry is never
// read before that of an earlier event (whose body would then show a later state than its own).
let last: Promise<unknown> = reading;
port.on('message', (message: ReaderRequest) => {
  if (message.kind === 'close') {
    void last.then(() => reading).then(({ db }) => db.close()).catch(() => undefined).finally(() => port.close());
    return;
  }
  last = last
    .then(() => reading)
    .then(({ reader }) => reader.bodies(message.events))
    .then(
      (bodies) => reply({ kind: 'bodies', id: message.id, bodies }),
      (error: unknown) => reply({ kind: 'error', id: message.id, error: describe(error) }),
    );
});
// Keep the rejection handled here; the main thread was told above.
reading.catch(() => undefined);

/**
 * Lowers this thread's scheduling priority (nice 19, Linux; elsewhere it stays as it is): when
 * the CPUs are busy, the thread serving requests runs first and entry reads use what is left,
 * so building payloads never costs the API throughput. Reads then lag behind a saturated server
 * and catch up when it is less busy.
 */
function yieldToRequests(): void {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(thread) && thread > 0) setPriority(thread, 19);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
