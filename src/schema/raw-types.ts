/**
 * The shapes of Strapi's `schema.json` and component JSON files as read from disk, before any
 * checking. Everything is optional/unknown here; load-schema.ts turns it into the typed model.
 */

export interface RawAttribute {
  readonly type?: unknown;
  readonly [option: string]: unknown;
}

export interface RawModelFile {
  readonly kind?: unknown;
  readonly collectionName?: unknown;
  readonly info?: {
    readonly singularName?: unknown;
    readonly pluralName?: unknown;
    readonly displayName?: unknown;
    readonly [key: string]: unknown;
  };
  readonly options?: Readonly<Record<string, unknown>>;
  readonly pluginOptions?: Readonly<Record<string, unknown>>;
  readonly attributes?: Readonly<Record<string, RawAttribute>>;
  /** Extra table indexes a model declares (Strapi's upload file and folder do). */
  readonly indexes?: unknown;
}

/** A content type to load: where it came from and what it declares. */
export interface RawContentType {
  readonly uid: string;
  readonly file: string;
  /** `api`: the project's `src/api`; `builtin`: Cairn's own (Strapi's plugins it serves); `plugin`: a plugin's server code. */
  readonly origin: 'api' | 'builtin' | 'plugin';
  readonly definition: RawModelFile;
}

/** A component to load. */
export interface RawComponent {
  readonly uid: string;
  readonly category: string;
  readonly file: string;
  readonly definition: RawModelFile;
}
