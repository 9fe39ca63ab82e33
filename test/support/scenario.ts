import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseKind } from './databases.js';
import {
  startTestServer,
  type RequestOptions,
  type TestResponse,
  type TestServer,
  type TestServerOptions,
} from './test-server.js';

export type Vars = Record<string, unknown>;

/** A raw body and the headers that describe it (a multipart form and its content-type, see multipart.ts). */
export interface RawBody {
  readonly payload: Buffer | Readable;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One request of an HTTP scenario and what its response must be. */
export interface Step extends Omit<RequestOptions, 'payload'> {
  /** A raw body, with its headers or built from the saved values when the step runs (the headers are added to the step's). */
  readonly payload?: Buffer | RawBody | ((vars: Vars) => RawBody);
  readonly name: string;
  readonly method?: string;
  /** Request path; `{{var}}` is replaced by a saved value. */
  readonly path: string;
  /** The expected status, or `client-error` for "any 4xx in Strapi's error envelope". */
  readonly status: number | 'client-error';
  /** The JSON body must contain these values (vitest `toMatchObject`). */
  readonly match?: unknown;
  /** The JSON body must equal this exactly. */
  readonly equal?: unknown;
  /** Further assertions on the response. */
  readonly check?: (response: TestResponse, context: { vars: Vars; server: TestServer }) => void | Promise<void>;
  /** Values to remember for later steps: name → dotted path in the JSON body (`data.documentId`). */
  readonly save?: Readonly<Record<string, string>>;
  /** Run the step only on these databases (for behaviour that differs by database, as in Strapi). */
  readonly databases?: readonly DatabaseKind[];
}

/** Replaces `{{name}}` in strings (a whole-string placeholder keeps the saved value's type). */
export function substitute<T>(value: T, vars: Vars): T {
  if (typeof value === 'string') {
    const whole = /^\{\{([\w.-]+)\}\}$/.exec(value);
    if (whole) return (whole[1]! in vars ? vars[whole[1]!] : value) as T;
    return value.replace(/\{\{([\w.-]+)\}\}/g, (_, name: string) => String(vars[name] ?? `{{${name}}}`)) as T;
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, vars)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)])) as T;
  }
  return value;
}

export function readPath(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (current, key) => (current == null ? undefined : (current as Record<string, unknown>)[key]),
      value,
    );
}

/**
 * Runs the steps in order against one fresh server (one fresh database), once per database the
 * run covers (SQLite, PostgreSQL, MySQL), and reports each step as a test. A step that depends on an earlier failed step fails too, with its own message. The
 * server's tokens are available as `{{__full}}` and `{{__readonly}}`.
 */
export function scenario(title: string, steps: readonly Step[], options: TestServerOptions = {}): void {
  for (const database of inject('databases')) {
    describe(`[${database}] ${title}`, () => scenarioOn(database, steps, options));
  }
}

function scenarioOn(database: DatabaseKind, steps: readonly Step[], options: TestServerOptions): void {
  {
    let server: TestServer;
    const vars: Vars = {};
    beforeAll(async () => {
      server = await startTestServer({ ...options, database });
      vars.__full = server.tokens.full;
      vars.__readonly = server.tokens.readonly;
    });
    afterAll(async () => {
      await server?.close();
    });
    for (const step of steps.filter((s) => !s.databases || s.databases.includes(database))) {
      it(step.name, async () => {
        await runStep(server, step, vars);
      });
    }
  }
}

/** Sends one step's request and checks its response. */
export async function runStep(server: TestServer, step: Step, vars: Vars): Promise<TestResponse> {
  const raw: RawBody | undefined =
    typeof step.payload === 'function'
      ? step.payload(vars)
      : Buffer.isBuffer(step.payload)
        ? { payload: step.payload }
        : step.payload;
  const headers = step.headers || raw?.headers ? { ...substitute(step.headers, vars), ...raw?.headers } : undefined;
  const response = await server.request(step.method ?? 'GET', substitute(step.path, vars), {
    ...(step.body !== undefined ? { body: substitute(step.body, vars) } : {}),
    ...(step.raw !== undefined ? { raw: substitute(step.raw, vars) } : {}),
    ...(raw ? { payload: raw.payload } : {}),
    ...(headers ? { headers } : {}),
    ...(step.auth ? { auth: step.auth } : {}),
  });
  const label = `${step.method ?? 'GET'} ${step.path} → ${response.text.slice(0, 300)}`;
  if (step.status === 'client-error') {
    expect(response.status, label).toBeGreaterThanOrEqual(400);
    expect(response.status, label).toBeLessThan(500);
    expect(response.json, label).toMatchObject({
      data: null,
      error: { status: response.status, name: expect.any(String), message: expect.any(String) },
    });
  } else {
    expect(response.status, label).toBe(step.status);
  }
  if (step.equal !== undefined) expect(response.json).toEqual(substitute(step.equal, vars));
  if (step.match !== undefined) expect(response.json).toMatchObject(substitute(step.match, vars) as object);
  for (const [name, path] of Object.entries(step.save ?? {})) vars[name] = readPath(response.json, path);
  await step.check?.(response, { vars, server });
  return response;
}

/** A step that only reads or seeds the database through `check` (its request, GET /_health, answers 204). */
export function dbStep(
  name: string,
  check: (context: { vars: Vars; server: TestServer }) => void | Promise<void>,
): Step {
  return { name, path: '/_health', status: 204, check: (_response, context) => check(context) };
}

/** Strapi's error envelope. */
export function errorBody(status: number, name: string, message: string, details?: unknown): unknown {
  return { data: null, error: { status, name, message, ...(details === undefined ? {} : { details }) } };
}
