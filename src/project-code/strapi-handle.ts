import { STRAPI_MEMBERS } from './strapi-object.js';
import { unofferedMember } from './unoffered-member.js';

/** The global `strapi` from the moment project code loads: early members first, the whole object once built. */
export interface StrapiHandle {
  /** What `global.strapi` holds (and what code that kept it sees later). */
  readonly strapi: Record<string, unknown>;
  /** Hands every member on to the `strapi` object of the running server. */
  bind(strapi: Record<string, unknown>): void;
}

/** Members read as absent rather than refused: what promise, inspection and interop code probe. */
const PROBED = new Set(['then', 'toJSON', 'constructor', 'inspect', 'asymmetricMatch', '$$typeof', '__esModule']);

/**
 * The `strapi` global that exists before any plugin file, extension or project file is loaded (some
 * read it then, as Strapi creates it first): until the server is built it answers the `early`
 * members (`config`, `log`, `dirs`, and what register may use: register-phase.ts) and refuses the
 * others naming the member and the file that used it (saying so when the server's `strapi` has
 * it); once `bind` is called it is the server's own `strapi` object.
 */
export function createStrapiHandle(early: Readonly<Record<string, unknown>>, projectDir: string): StrapiHandle {
  let bound: Record<string, unknown> | null = null;
  const strapi = new Proxy({} as Record<string, unknown>, {
    get(_target, key) {
      if (bound) return Reflect.get(bound, key);
      if (typeof key === 'symbol' || PROBED.has(key)) return undefined;
      if (key in early) return early[key];
      // A member the server's strapi has is only early; any other is not offered at all.
      throw unofferedMember(
        STRAPI_MEMBERS.has(key)
          ? `strapi.${key} before the server is built (while the files load and in register, the database is not open yet, as in Strapi)`
          : `strapi.${key}`,
        projectDir,
      );
    },
    has: (_target, key) => (bound ? key in bound : key in early),
    ownKeys: () => Reflect.ownKeys(bound ?? early),
    getOwnPropertyDescriptor: (_target, key) => {
      const source = bound ?? early;
      return key in source ? { configurable: true, enumerable: true, value: Reflect.get(source, key) } : undefined;
    },
  });
  return {
    strapi,
    bind(real) {
      bound = real;
    },
  };
}
