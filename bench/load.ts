import autocannon from 'autocannon';
import type { RequestKind } from './request-kinds.js';

/** What one load run measured. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly non2xx: number;
  readonly total: number;
}

/** How hard and how long to drive a server. */
export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  /** Seconds of discarded load first, so the JIT and caches are warm. */
  readonly warmupSeconds: number;
}

/** Drives `baseUrl` with one request kind (autocannon, keep-alive connections) and returns its figures. */
export async function measure(baseUrl: string, kind: RequestKind, options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await run(baseUrl, kind, options.connections, options.warmupSeconds);
  const result = await run(baseUrl, kind, options.connections, options.seconds);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    // A kind answered by 304s counts every other status (the limit server's 200s too) as wrong.
    non2xx: kind.expectStatus === 304 ? result['1xx'] + result['2xx'] + result['4xx'] + result['5xx'] : result.non2xx,
    total: result.requests.total,
  };
}

/** Two runs of the same kind as one: rates and latencies averaged, errors added up. */
export function meanResult(a: LoadResult, b: LoadResult): LoadResult {
  const mean = (x: number, y: number) => (x + y) / 2;
  return {
    requestsPerSecond: mean(a.requestsPerSecond, b.requestsPerSecond),
    p50Ms: mean(a.p50Ms, b.p50Ms),
    p99Ms: mean(a.p99Ms, b.p99Ms),
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
    total: a.total + b.total,
  };
}

let sequence = 0;

function run(baseUrl: string, kind: RequestKind, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          const next = kind.request(sequence++);
          return {
            ...request,
            method: next.method,
            path: next.path,
            ...(next.body === undefined
              ? {}
              : { body: next.body, headers: { ...request.headers, 'content-type': 'application/json' } }),
            ...(next.headers && { headers: { ...request.headers, ...next.headers } }),
          };
        },
      },
    ],
  });
}

/** Sends one request of a kind and describes a non-2xx answer (for the loud failure report). */
export async function describeFailure(baseUrl: string, kind: RequestKind): Promise<string> {
  const request = kind.request(sequence++);
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    ...(request.body === undefined ? {} : { body: request.body, headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return `${request.method} ${request.path} → ${response.status} ${text.slice(0, 300)}`;
}
