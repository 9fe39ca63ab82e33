import { ProjectError } from '../core/errors.js';
import { parseByteSize } from './parse-byte-size.js';

/**
 * `config/api` → `realtime` (Cairn; Strapi ignores it): the Server-Sent Events streams of
 * `GET /api/:pluralApiId/stream` (see realtime/).
 */
export interface RealtimeConfig {
  /** False: no stream routes at all. */
  readonly enabled: boolean;
  /** Milliseconds between two heartbeat comments on an idle stream. */
  readonly heartbeatMs: number;
  /** Open streams one caller may hold at once (an API token, a user, or an address for Public). */
  readonly maxConnectionsPerCaller: number;
  /** The most recent events kept per content type for `Last-Event-ID` resume. */
  readonly replayEvents: number;
  /** How long (milliseconds) an event stays available for resume. */
  readonly replayWindowMs: number;
  /**
   * The most bytes of events one stream may have waiting for a client that reads slower than
   * they come: past it the stream ends with a `close` event (`slow-consumer`).
   */
  readonly maxBufferedBytes: number;
}

const KEYS = ['enabled', 'heartbeat', 'maxConnectionsPerCaller', 'replayEvents', 'replayWindow', 'maxBufferedBytes'];
const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads `realtime` of `config/api`:
 *
 *   undefined → { enabled: true, heartbeatMs: 15000, maxConnectionsPerCaller: 10, replayEvents: 1000,
 *                 replayWindowMs: 300000, maxBufferedBytes: 4194304 }
 *   false     → enabled: false
 *   { heartbeat: '30s', maxConnectionsPerCaller: 4, replayEvents: 200, replayWindow: '1m', maxBufferedBytes: '1mb' }
 *
 * Durations are milliseconds (a number) or `'200ms'`, `'15s'`, `'5m'`, `'1h'`; sizes bytes (a number)
 * or `'512kb'`, `'4mb'`.
 */
export function normalizeRealtime(raw: unknown): RealtimeConfig {
  const defaults = {
    enabled: true,
    heartbeatMs: 15_000,
    maxConnectionsPerCaller: 10,
    replayEvents: 1000,
    replayWindowMs: 300_000,
    maxBufferedBytes: 4 * 1024 * 1024,
  };
  if (raw === undefined || raw === null || raw === true) return Object.freeze(defaults);
  if (raw === false) return Object.freeze({ ...defaults, enabled: false });
  if (!isObj(raw)) fail(`"realtime" must be an object or false, got ${JSON.stringify(raw)}`);
  for (const key of Object.keys(raw))
    if (!KEYS.includes(key)) fail(`unknown key "realtime.${key}"; use ${KEYS.join(', ')}`);
  if (raw.enabled !== undefined && typeof raw.enabled !== 'boolean')
    fail(`"realtime.enabled" must be true or false, got ${JSON.stringify(raw.enabled)}`);
  return Object.freeze({
    enabled: raw.enabled !== false,
    heartbeatMs: raw.heartbeat === undefined ? defaults.heartbeatMs : durationMs(raw.heartbeat, 'heartbeat'),
    maxConnectionsPerCaller:
      raw.maxConnectionsPerCaller === undefined
        ? defaults.maxConnectionsPerCaller
        : positiveInteger(raw.maxConnectionsPerCaller, 'maxConnectionsPerCaller'),
    replayEvents:
      raw.replayEvents === undefined ? defaults.replayEvents : positiveInteger(raw.replayEvents, 'replayEvents'),
    replayWindowMs:
      raw.replayWindow === undefined ? defaults.replayWindowMs : durationMs(raw.replayWindow, 'replayWindow'),
    maxBufferedBytes:
      raw.maxBufferedBytes === undefined
        ? defaults.maxBufferedBytes
        : parseByteSize(raw.maxBufferedBytes, 'api', '"realtime.maxBufferedBytes"'),
  });
}

function durationMs(value: unknown, key: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.ceil(value);
  const match = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value) : null;
  const factor = UNITS[(match?.[2] ?? 'ms').toLowerCase()];
  if (match && factor !== undefined && Number(match[1]) > 0) return Math.ceil(Number(match[1]) * factor);
  return fail(`"realtime.${key}" must be milliseconds or a span such as '15s' or '5m', got ${JSON.stringify(value)}`);
}

function positiveInteger(value: unknown, key: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  return fail(`"realtime.${key}" must be a positive integer, got ${JSON.stringify(value)}`);
}

function fail(message: string): never {
  throw new ProjectError(`config/api: ${message}`);
}
