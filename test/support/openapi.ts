import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { EXAMPLE_PROJECT } from './test-server.js';

/** A served OpenAPI document, as JSON. */
export type OpenApiJson = {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; $ref?: string }[] }>>;
  components: { schemas: Record<string, Record<string, unknown>> } & Record<string, unknown>;
} & Record<string, unknown>;

/**
 * The example project's `config/plugins.js` with a `documentation` entry added (`entry` as its
 * value, e.g. `{ config: { info: { version: '2.0.0' } } }`), for startTestServer's `files`.
 */
export function pluginsWithDocumentation(entry: Readonly<Record<string, unknown>> = {}): string {
  const original = readFileSync(join(EXAMPLE_PROJECT, 'config/plugins.js'), 'utf8');
  return original.replace(
    'module.exports = () => ({',
    `module.exports = () => ({\n  documentation: ${JSON.stringify(entry)},`,
  );
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the document says of one exchange: the problems found, none when the exchange fits. */
export interface ContractChecker {
  /** `schema` (a `components/schemas` name) against `value`. */
  schema(name: string, value: unknown): string[];
  /** A JSON request body against the requestBody of the operation the method and URL reach. */
  request(method: string, url: string, body: unknown): string[];
  /** A response against the operation's responses: the status must be listed, the body fit its schema. */
  response(method: string, url: string, status: number, body: unknown): string[];
}

/**
 * Checks exchanges against the document with Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect).
 * The operation is found by matching the URL's path (below the first server's URL) with the
 * document's path templates, literal segments first (`/users/me` before `/users/{id}`). Formats
 * are not checked (Ajv needs a plugin for them); `discriminator` is read as the annotation it is
 * (`oneOf` decides).
 */
export function contractChecker(document: OpenApiJson): ContractChecker {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'openapi.json', components: document.components });
  const base = document.servers[0]?.url ?? '';
  const templates = Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params);
  const operation = (method: string, url: string): Json | string => {
    const path = (url.split('?')[0] ?? '').replace(/\/+$/, '');
    const below = path.startsWith(base) ? path.slice(base.length) || '/' : path;
    const found = templates.find(({ pattern }) => pattern.test(below));
    const op = found ? document.paths[found.template]?.[method.toLowerCase()] : undefined;
    return isObject(op) ? op : `${method} ${url}: no operation in the document`;
  };
  const check = (schema: unknown, value: unknown, what: string): string[] => {
    const validate = ajv.compile(absoluteRefs(schema) as Json);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${what}: ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
  };
  const resolve = (value: unknown): unknown => {
    const ref = isObject(value) ? value.$ref : undefined;
    if (typeof ref !== 'string') return value;
    return ref
      .split('/')
      .slice(1)
      .reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), document);
  };
  return {
    schema: (name, value) => check({ $ref: `#/components/schemas/${name}` }, value, name),
    request(method, url, body) {
      const op = operation(method, url);
      if (typeof op === 'string') return [op];
      const content = (resolve(op.requestBody) as { content?: Record<string, { schema: unknown }> } | undefined)
        ?.content;
      const schema = content?.['application/json']?.schema;
      return schema ? check(schema, body, `${method} ${url} body`) : [`${method} ${url}: no JSON body documented`];
    },
    response(method, url, status, body) {
      const op = operation(method, url);
      if (typeof op === 'string') return [op];
      const responses = op.responses as Record<string, unknown>;
      const response = resolve(responses[String(status)]) as
        { content?: Record<string, { schema: unknown }> } | undefined;
      if (!response) return [`${method} ${url}: status ${status} is not documented`];
      const schema = response.content?.['application/json']?.schema;
      if (!schema) return body === undefined ? [] : [`${method} ${url} ${status}: a body where none is documented`];
      return check(schema, body, `${method} ${url} ${status}`);
    },
  };
}

/** A schema whose `#/components/…` references name the document added to Ajv as `openapi.json`. */
function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (!isObject(value)) return value;
  const copy: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    copy[key] =
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#')
        ? `openapi.json${inner}`
        : absoluteRefs(inner);
  }
  return copy;
}

/** The TypeScript types openapi-typescript generates from the document (`paths`, `components`, `operations`). */
export async function generatedTypes(document: OpenApiJson): Promise<string> {
  return astToString(await openapiTS(structuredClone(document) as never));
}

const NODE_TYPES = resolve(import.meta.dirname, '../../node_modules/@types');

/**
 * Type-checks `files` (name → TypeScript source, written to a fresh folder as an ES module
 * package) with strict settings and Node's types, without emitting: the diagnostics as
 * `file:line message` lines, none when everything compiles.
 */
export function typeCheck(files: Readonly<Record<string, string>>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-openapi-client-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
    const program = ts.createProgram(
      Object.keys(files).map((name) => join(dir, name)),
      {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2023.d.ts'],
        types: ['node'],
        typeRoots: [NODE_TYPES],
        noUncheckedIndexedAccess: true,
      },
    );
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const file = diagnostic.file;
      const line = file ? file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1 : 0;
      const where = file ? `${file.fileName.slice(dir.length + 1)}:${line}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
