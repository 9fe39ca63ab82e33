/**
 * The parts of an OpenAPI 3.1 document Cairn writes, typed so that the generator cannot produce
 * a misspelt key. Schemas are JSON Schema 2020-12 (OpenAPI 3.1's dialect): `null` is a type,
 * `const` and `oneOf` + `discriminator` describe dynamic zones.
 */

/** A JSON Schema type name. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** `{ $ref: '#/components/…' }`. */
export interface Reference {
  readonly $ref: string;
}

/** A JSON Schema (2020-12) object, restricted to the keywords the generator uses. */
export interface SchemaObject {
  readonly type?: JsonType | readonly JsonType[];
  readonly description?: string;
  readonly format?: string;
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly const?: string | number | boolean;
  readonly default?: unknown;
  readonly example?: unknown;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly properties?: Readonly<Record<string, SchemaOrRef>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | SchemaOrRef;
  readonly items?: SchemaOrRef;
  readonly oneOf?: readonly SchemaOrRef[];
  readonly anyOf?: readonly SchemaOrRef[];
  readonly allOf?: readonly SchemaOrRef[];
  readonly discriminator?: { readonly propertyName: string; readonly mapping?: Readonly<Record<string, string>> };
  readonly contentMediaType?: string;
  readonly writeOnly?: boolean;
}

/** A schema or a reference to one under `components/schemas`. */
export type SchemaOrRef = SchemaObject | Reference;

/** A parameter of an operation (`in: query | path | header`). */
export interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header' | 'cookie';
  readonly description?: string;
  readonly required?: boolean;
  readonly style?: 'form' | 'deepObject' | 'simple';
  readonly explode?: boolean;
  readonly schema: SchemaOrRef;
  /** What a viewer fills in (Swagger UI's "Try it out"). */
  readonly example?: unknown;
}

/** One media type of a body. */
export interface MediaType {
  readonly schema: SchemaOrRef;
}

/** A request body. */
export interface RequestBody {
  readonly description?: string;
  readonly required?: boolean;
  readonly content: Readonly<Record<string, MediaType>>;
}

/** A response: a description and, unless empty, its content. */
export interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, { readonly description?: string; readonly schema: SchemaOrRef }>>;
  readonly content?: Readonly<Record<string, MediaType>>;
}

/** Security requirement: scheme name → scopes (always none here); `{}` means "no credentials". */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** One operation (method) of a path. */
export interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly parameters?: readonly (Parameter | Reference)[];
  readonly requestBody?: RequestBody;
  readonly responses: Readonly<Record<string, Response | Reference>>;
  readonly security?: readonly SecurityRequirement[];
  /** Cairn extension: the permission action the route checks (as `routes:list` prints it). */
  readonly 'x-strapi-action'?: string;
}

/** The methods of one path. */
export type PathItem = Partial<Record<'get' | 'post' | 'put' | 'delete' | 'patch', Operation>> & {
  readonly parameters?: readonly Parameter[];
};

/** A security scheme (HTTP bearer only: API tokens and users' JWTs). */
export interface SecurityScheme {
  readonly type: 'http';
  readonly scheme: 'bearer';
  readonly bearerFormat?: string;
  readonly description?: string;
}

/** The document's `info`: title and version, and whatever else the project's settings give. */
export interface Info {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  readonly [key: string]: unknown;
}

/** A server the API is reached at. */
export interface Server {
  readonly url: string;
  readonly description?: string;
}

/** An OpenAPI 3.1 document. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: Info;
  readonly jsonSchemaDialect?: string;
  readonly servers: readonly Server[];
  readonly externalDocs?: { readonly url: string; readonly description?: string };
  readonly tags: readonly { readonly name: string; readonly description?: string }[];
  readonly paths: Readonly<Record<string, PathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, SchemaObject>>;
    readonly responses: Readonly<Record<string, Response>>;
    readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  };
  readonly security: readonly SecurityRequirement[];
}
