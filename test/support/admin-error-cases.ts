import { expect } from 'vitest';
import { expectError, type AdminClient } from './admin-client.js';
import type { TestResponse } from './test-server.js';

/**
 * One bad request to an admin route and the refusal Strapi answers it with. In `path`,
 * `{{name}}` stands for a value the test file sets up (an existing document's id…).
 */
export interface ErrorCase {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  /** Sent as-is instead of `body`. */
  readonly raw?: string;
  readonly status: number;
  readonly error: string;
  readonly message?: string | RegExp;
  /** The first entry of `details.errors`: its path (dotted) and message. */
  readonly field?: [string, string];
  /** Every entry of `details.errors`, in order: path (dotted), message and the value yup reports. */
  readonly errors?: [string, string, unknown][];
}

/** A request of a case (or any odd request) as the client's admin, `{{name}}` replaced from `vars`. */
export function sendCase(
  client: AdminClient,
  vars: Readonly<Record<string, string>>,
  c: { method: string; path: string; body?: unknown; raw?: string },
): Promise<TestResponse> {
  const path = c.path.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? name);
  return c.raw === undefined ? client.call(c.method, path, c.body) : client.request(c.method, path, { raw: c.raw });
}

/**
 * Asserts the answer of a case: its status and error in Strapi's envelope (a body-parser
 * `SyntaxError` has no details), then the field errors the case lists.
 */
export function expectCaseAnswer(response: TestResponse, c: ErrorCase): void {
  if (c.error === 'SyntaxError') {
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      data: null,
      error: { status: 400, name: 'SyntaxError', message: c.message ?? expect.any(String) },
    });
    return;
  }
  expectError(response, c.status, c.error, c.message);
  if (c.field) {
    const [path, message] = c.field;
    expect(response.json.error.details.errors[0]).toMatchObject({ path: path.split('.'), message });
    if (c.message === undefined && response.json.error.details.errors.length === 1)
      expect(response.json.error.message).toBe(message);
  }
  if (c.errors)
    expect(response.json.error.details.errors).toEqual(
      c.errors.map(([path, message, value]) => ({ path: path.split('.'), message, name: 'ValidationError', value })),
    );
}

/** Asserts an odd request's answer: a 2xx, or a 4xx in Strapi's envelope; never a 500. */
export function expectNo500(response: TestResponse, label: string): void {
  expect(response.status, label).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.json.data, label).toBeNull();
    expect(response.json.error, label).toMatchObject({
      status: response.status,
      name: expect.any(String),
      message: expect.any(String),
    });
  }
}
