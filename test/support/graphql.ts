import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLE_PROJECT, type RequestOptions, type TestResponse, type TestServer } from './test-server.js';

/** The plugin's settings the conformance recording used (`../shared/fixtures/blog/config/plugins.js`). */
export const GRAPHQL_SETTINGS = {
  endpoint: '/graphql',
  shadowCRUD: true,
  landingPage: false,
  depthLimit: 10,
  amountLimit: 100,
  defaultLimit: 25,
  maxLimit: 100,
  apolloServer: { introspection: true },
};

/**
 * The example project's `config/plugins.js` with a `graphql` entry added (`settings` as its
 * `config`; `false` leaves the plugin out), for startTestServer's `files`.
 */
export function pluginsWithGraphql(settings: Readonly<Record<string, unknown>> | false = GRAPHQL_SETTINGS): string {
  const original = readFileSync(join(EXAMPLE_PROJECT, 'config/plugins.js'), 'utf8');
  if (settings === false) return original;
  const entry = `graphql: { config: ${JSON.stringify(settings)} },`;
  return original.replace('module.exports = () => ({', `module.exports = () => ({\n  ${entry}`);
}

/** POSTs one operation to `/graphql` as a JSON client does. */
export function gql(
  server: TestServer,
  query: string,
  variables?: Readonly<Record<string, unknown>>,
  options: Omit<RequestOptions, 'body'> = {},
  path = '/graphql',
): Promise<TestResponse> {
  return server.request('POST', path, { ...options, body: variables ? { query, variables } : { query } });
}

/** Creates a document through REST with the full-access token and returns its documentId. */
export async function restCreate(
  server: TestServer,
  plural: string,
  data: Readonly<Record<string, unknown>>,
  query = '',
): Promise<string> {
  const response = await server.request('POST', `/api/${plural}${query}`, { auth: 'full', body: { data } });
  if (response.status !== 201) throw new Error(`seeding ${plural} failed: ${response.status} ${response.text}`);
  return String(response.json.data.documentId);
}
