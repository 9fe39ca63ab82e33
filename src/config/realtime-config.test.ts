import { describe, expect, it } from 'vitest';
import { normalizeRealtime } from './realtime-config.js';

describe('config/api realtime', () => {
  it('reads the examples of the doc comment', () => {
    expect(normalizeRealtime(undefined)).toEqual({
      enabled: true,
      heartbeatMs: 15000,
      maxConnectionsPerCaller: 10,
      replayEvents: 1000,
      replayWindowMs: 300000,
      maxBufferedBytes: 4194304,
    });
    expect(normalizeRealtime(false).enabled).toBe(false);
    expect(
      normalizeRealtime({
        heartbeat: '30s',
        maxConnectionsPerCaller: 4,
        replayEvents: 200,
        replayWindow: '1m',
        maxBufferedBytes: '1mb',
      }),
    ).toEqual({
      enabled: true,
      heartbeatMs: 30000,
      maxConnectionsPerCaller: 4,
      replayEvents: 200,
      replayWindowMs: 60000,
      maxBufferedBytes: 1048576,
    });
    expect(normalizeRealtime({ heartbeat: 150 }).heartbeatMs).toBe(150);
    expect(normalizeRealtime({ heartbeat: '200ms' }).heartbeatMs).toBe(200);
  });

  it('refuses unknown keys and bad values with one line', () => {
    expect(() => normalizeRealtime({ beat: 1 })).toThrow('config/api: unknown key "realtime.beat"');
    expect(() => normalizeRealtime({ heartbeat: 'soon' })).toThrow(
      `config/api: "realtime.heartbeat" must be milliseconds or a span such as '15s' or '5m', got "soon"`,
    );
    expect(() => normalizeRealtime({ maxConnectionsPerCaller: 0 })).toThrow(
      'config/api: "realtime.maxConnectionsPerCaller" must be a positive integer, got 0',
    );
    expect(normalizeRealtime({ maxBufferedBytes: 65536 }).maxBufferedBytes).toBe(65536);
    expect(() => normalizeRealtime({ maxBufferedBytes: 'lots' })).toThrow(
      'config/api: "realtime.maxBufferedBytes" must be a size such as "1mb" or a number of bytes, got "lots"',
    );
    expect(() => normalizeRealtime('yes')).toThrow('config/api: "realtime" must be an object or false, got "yes"');
  });
});
