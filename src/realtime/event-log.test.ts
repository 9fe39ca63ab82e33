import { describe, expect, it } from 'vitest';
import { createEventLog } from './event-log.js';

const change = (documentId: string) => ({ kind: 'update' as const, documentId, locale: null, published: true });

describe('realtime event log (Last-Event-ID resume)', () => {
  it('replays the changes of one type after an id, up to a bound', () => {
    let now = 1000;
    const log = createEventLog({ maxEvents: 10, windowMs: 60_000, now: () => now });
    const a1 = log.append('a', change('1'));
    log.append('b', change('x'));
    const a2 = log.append('a', change('2'));
    const a3 = log.append('a', change('3'));
    now += 10;
    const replay = log.resume('a', log.idOf(a1.seq), a2.seq);
    expect(replay).toEqual({ kind: 'replay', changes: [a2] });
    expect(log.resume('a', log.idOf(a1.seq), log.lastSeq)).toEqual({ kind: 'replay', changes: [a2, a3] });
    expect(log.resume('c', log.idOf(a1.seq), log.lastSeq)).toEqual({ kind: 'replay', changes: [] });
  });

  it('answers reset past the count or the age kept, for a foreign id and for one from the future', () => {
    let now = 1000;
    const log = createEventLog({ maxEvents: 2, windowMs: 1000, now: () => now });
    const first = log.append('a', change('1'));
    const second = log.append('a', change('2'));
    const third = log.append('a', change('3'));
    expect(log.resume('a', log.idOf(first.seq), log.lastSeq)).toEqual({ kind: 'replay', changes: [second, third] });
    log.append('a', change('4'));
    expect(log.resume('a', log.idOf(first.seq), log.lastSeq)).toEqual({ kind: 'reset' });
    expect(log.resume('a', log.idOf(second.seq), log.lastSeq).kind).toBe('replay');
    now += 5000;
    expect(log.resume('a', log.idOf(third.seq), log.lastSeq)).toEqual({ kind: 'reset' });
    expect(log.resume('a', log.idOf(log.lastSeq), log.lastSeq)).toEqual({ kind: 'replay', changes: [] });
    expect(log.resume('a', 'nope', log.lastSeq)).toEqual({ kind: 'reset' });
    expect(log.resume('a', '0.1', log.lastSeq)).toEqual({ kind: 'reset' });
    expect(log.resume('a', log.idOf(log.lastSeq + 1), log.lastSeq)).toEqual({ kind: 'reset' });
  });
});
