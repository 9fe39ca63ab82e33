import { describe, expect, it } from 'vitest';
import type { CompiledQuery } from './dialect.js';
import { reuseStatement, type StatementValues } from './reused-statements.js';

/** A compile function that counts its calls. */
function counted(compile: (values: StatementValues) => CompiledQuery) {
  const calls = { count: 0 };
  const plan = (values: StatementValues) => {
    calls.count++;
    return { plan: { values }, statement: compile(values) };
  };
  return { calls, plan };
}

const byIds = (values: StatementValues): CompiledQuery => ({
  sql: `select * from t where x = ? and id in (${values.map(() => '?').join(', ')}) limit +?`,
  params: ['fixed', ...values, 25],
});

describe('reuseStatement', () => {
  it('plans a frozen owner twice on first use, then binds later values into the same text', () => {
    const owner = Object.freeze({});
    const { calls, plan } = counted(byIds);
    const first = reuseStatement(owner, 'k:2', [4, 9], plan);
    expect(first.statement).toEqual({ sql: byIds([4, 9]).sql, params: ['fixed', 4, 9, 25] });
    expect(calls.count).toBe(2);
    const second = reuseStatement(owner, 'k:2', [7, 3], plan);
    expect(calls.count).toBe(2);
    expect(second.statement.sql).toBe(first.statement.sql);
    expect(second.statement.params).toEqual(['fixed', 7, 3, 25]);
    // The plan is the first call's.
    expect(second.plan).toBe(first.plan);
  });

  it('keeps a constant that equals a value where it is', () => {
    const owner = Object.freeze({});
    const compile = (values: StatementValues): CompiledQuery => ({
      sql: 'select * from t where a = ? and id = ?',
      params: [5, values[0]],
    });
    reuseStatement(owner, 'one', [5], counted(compile).plan);
    expect(reuseStatement(owner, 'one', [8], counted(compile).plan).statement.params).toEqual([5, 8]);
  });

  it('keeps nothing when the text follows from the values', () => {
    const owner = Object.freeze({});
    const compile = (values: StatementValues): CompiledQuery => ({
      sql: `select * from t where id ${values[0] === 'x' ? '=' : '<>'} ?`,
      params: [values[0]],
    });
    const { calls, plan } = counted(compile);
    reuseStatement(owner, 'one', ['x'], plan);
    const again = reuseStatement(owner, 'one', ['y'], plan);
    expect(again.statement).toEqual({ sql: 'select * from t where id <> ?', params: ['y'] });
    expect(calls.count).toBe(3);
  });

  it('keeps nothing when a value is bound encoded (a dialect that changes it)', () => {
    const owner = Object.freeze({});
    const compile = (values: StatementValues): CompiledQuery => ({
      sql: 'select * from t where id = ?',
      params: [String(values[0])],
    });
    const { calls, plan } = counted(compile);
    reuseStatement(owner, 'one', [1], plan);
    expect(reuseStatement(owner, 'one', [2], plan).statement.params).toEqual(['2']);
    expect(calls.count).toBe(3);
  });

  it('plans every call for an owner that is not frozen, and per key', () => {
    const { calls, plan } = counted(byIds);
    const owner = {};
    reuseStatement(owner, 'k:1', [1], plan);
    reuseStatement(owner, 'k:1', [2], plan);
    expect(calls.count).toBe(2);
    const frozen = Object.freeze({});
    reuseStatement(frozen, 'k:1', [1], plan);
    const other = reuseStatement(frozen, 'k:2', [1, 2], plan);
    expect(other.statement.params).toEqual(['fixed', 1, 2, 25]);
    expect(calls.count).toBe(6);
  });
});
