import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSecretLeaks, passwordsIn, scannableText } from './support/secret-scan.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const HASH = '$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
const TOKEN = `${'ab'.repeat(64)}.lq2x8k0`;
const none = { passwords: [], tokens: [] };

describe('findSecretLeaks', () => {
  it('finds nothing in a clean body', () => {
    expect(
      findSecretLeaks('{"data":{"title":"$2 off, 10$ each"}}', {
        passwords: ['Correct-Horse-1'],
        tokens: [{ kind: 'reset_password_token', value: TOKEN }],
      }),
    ).toEqual([]);
  });
  it('finds a bcrypt hash of any variant', () => {
    expect(findSecretLeaks(JSON.stringify({ password: HASH }), none)).toEqual([{ kind: 'bcrypt hash', value: HASH }]);
    expect(findSecretLeaks('"$2b$12$abc"', none).map((l) => l.kind)).toEqual(['bcrypt hash']);
    expect(findSecretLeaks('"$2y$04$abc"', none).map((l) => l.kind)).toEqual(['bcrypt hash']);
  });
  it('finds a known password, as sent or escaped inside a JSON string', () => {
    expect(findSecretLeaks('{"note":"Correct-Horse-1"}', { passwords: ['Correct-Horse-1'], tokens: [] })).toEqual([
      { kind: 'password', value: 'Correct-Horse-1' },
    ]);
    const odd = 'quote"back\\slash';
    expect(findSecretLeaks(JSON.stringify({ note: `x${odd}x` }), { passwords: [odd], tokens: [] })).toEqual([
      { kind: 'password', value: odd },
    ]);
  });
  it('finds stored tokens, named by their column', () => {
    const known = {
      passwords: [],
      tokens: [
        { kind: 'reset_password_token' as const, value: TOKEN },
        { kind: 'confirmation_token' as const, value: 'c0ffee'.repeat(20) },
      ],
    };
    expect(findSecretLeaks(`{"link":"https://x/reset?code=${TOKEN}"}`, known)).toEqual([
      { kind: 'reset_password_token', value: TOKEN },
    ]);
    expect(findSecretLeaks(`{"a":"${'c0ffee'.repeat(20)}","b":"${HASH}"}`, known).map((l) => l.kind)).toEqual([
      'bcrypt hash',
      'confirmation_token',
    ]);
  });
});

describe('scannableText', () => {
  const mismatch = (value: string, extra = {}) => ({
    data: null,
    error: {
      status: 400,
      name: 'ValidationError',
      message: 'Passwords do not match',
      details: {
        errors: [{ path: ['passwordConfirmation'], message: 'Passwords do not match', name: 'ValidationError', value }],
      },
      ...extra,
    },
  });
  it("leaves out Strapi's echo of the client's passwordConfirmation, and only that", () => {
    const body = mismatch('Correct-Horse-1');
    expect(
      findSecretLeaks(scannableText(JSON.stringify(body), body), { passwords: ['Correct-Horse-1'], tokens: [] }),
    ).toEqual([]);
    const elsewhere = mismatch('Correct-Horse-1', { hint: 'Correct-Horse-1' });
    expect(
      findSecretLeaks(scannableText(JSON.stringify(elsewhere), elsewhere), {
        passwords: ['Correct-Horse-1'],
        tokens: [],
      }),
    ).toHaveLength(1);
  });
  it('keeps every other body as it is', () => {
    const body = { data: null, error: { details: { errors: [{ path: ['password'], value: 'Correct-Horse-1' }] } } };
    expect(scannableText('raw text', body)).toBe('raw text');
    expect(scannableText('not json', undefined)).toBe('not json');
  });
});

describe('passwordsIn', () => {
  it('collects password, currentPassword and newPassword values at any depth, nothing else', () => {
    const body = {
      identifier: 'ada',
      password: 'Correct-Horse-1',
      passwordConfirmation: 'Confirm-Only-1',
      nested: [{ currentPassword: 'Old-Horse-22', newPassword: 'New-Horse-333' }],
      data: { password: 'short' },
    };
    expect(passwordsIn(body)).toEqual(['Correct-Horse-1', 'Old-Horse-22', 'New-Horse-333']);
    expect(passwordsIn('password')).toEqual([]);
    expect(passwordsIn({ password: 42 })).toEqual([]);
  });
});

describe('the scan on a test server', () => {
  let server: TestServer;
  const user = { username: 'scanned', email: 'scanned@example.com', password: 'Scan-Me-Passw0rd' };
  let jwt: string;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('records the password of a successful register, whose own response does not contain it', async () => {
    const response = await server.request('POST', '/api/auth/local/register', { body: user });
    expect(response.status).toBe(200);
    jwt = response.json.jwt;
    expect(response.text).not.toContain(user.password);
    expect((await server.secretScan.known()).passwords).toEqual([user.password]);
  });

  it('does not record the password of a failed request', async () => {
    const response = await server.request('POST', '/api/auth/local', {
      body: { identifier: 'scanned', password: 'Wrong-Passw0rd-9' },
    });
    expect(response.status).toBe(400);
    expect((await server.secretScan.known()).passwords).toEqual([user.password]);
  });

  it("tolerates Strapi's echo of passwordConfirmation (here the user's current password)", async () => {
    const response = await server.request('POST', '/api/auth/change-password', {
      auth: { jwt },
      body: { currentPassword: user.password, password: 'Another-Passw0rd', passwordConfirmation: user.password },
    });
    expect(response.status).toBe(400);
    expect(response.json.error.message).toBe('Passwords do not match');
    expect(response.text).toContain(user.password);
  });

  it('forgot-password stores a token the scan knows; the email has it, the response does not', async () => {
    expect((await server.secretScan.known()).tokens).toEqual([]);
    const response = await server.request('POST', '/api/auth/forgot-password', { body: { email: user.email } });
    expect(response.json).toEqual({ ok: true });
    const mail = server.mails.at(-1);
    const code = /code=([^\s<"]+)/.exec(mail?.text ?? '')?.[1];
    expect(code).toMatch(/^[0-9a-f]{128}\.[0-9a-z]+$/);
    const { tokens } = await server.secretScan.known();
    expect(tokens).toEqual([{ kind: 'reset_password_token', value: code }]);
    expect(response.text).not.toContain(code);
  });

  it('a response leaking a stored token, a known password or a bcrypt hash makes request() throw', async () => {
    const { tokens } = await server.secretScan.known();
    const code = tokens[0]!.value;
    // Public may create articles in the example project: an article echoes its summary back.
    const post = (summary: string) =>
      server.request('POST', '/api/articles?fields[0]=summary', { body: { data: { title: 'echo', summary } } });
    await expect(post(`reset ${code}`)).rejects.toThrow(
      /secret scan: the response to POST \/api\/articles\?fields\[0\]=summary \(201\) contains a reset_password_token/,
    );
    await expect(post(user.password)).rejects.toThrow(/contains a password \(Scan-Me-Passw0rd…\)/);
    await expect(post(HASH)).rejects.toThrow(/contains a bcrypt hash/);
  });

  it("leaves its own SELECT out of the server's statement log", async () => {
    server.resetQueries();
    const response = await server.request('GET', '/api/tags');
    expect(response.status).toBe(200);
    expect(server.queries.length).toBeGreaterThan(0);
    expect(server.queries.map((q) => q.sql).join('\n')).not.toMatch(/scanReset|reset_password_token/);
  });
});
