import { describe, expect, it } from 'vitest';
import { writeIsolationFor } from './mysql-database.js';

// Checked by hand against MariaDB 10.11 started with --log-bin --binlog-format=STATEMENT: at READ
// COMMITTED every write fails ("impossible to write to binary log since BINLOG_FORMAT = STATEMENT"),
// so `cairn start` could not even apply permissions; with the fallback it starts and writes.
describe('MySQL write isolation', () => {
  it('is READ COMMITTED without a binary log, or with a row-based or mixed one', () => {
    expect(writeIsolationFor(false, 'STATEMENT')).toBe('read committed');
    expect(writeIsolationFor(true, 'ROW')).toBe('read committed');
    expect(writeIsolationFor(true, 'MIXED')).toBe('read committed');
  });

  it('falls back to REPEATABLE READ with a statement-based binary log', () => {
    expect(writeIsolationFor(true, 'STATEMENT')).toBe('repeatable read');
    expect(writeIsolationFor(true, 'statement')).toBe('repeatable read');
  });
});
