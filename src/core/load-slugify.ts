import type slugifyFunction from '@sindresorhus/slugify';

/** `@sindresorhus/slugify`'s function. */
export type Slugify = typeof slugifyFunction;

let loading: Promise<Slugify> | undefined;

/**
 * `@sindresorhus/slugify`, imported on first use: its transliteration tables take some 25 ms to
 * build when the module loads, which a start that uploads nothing and generates no UID need not
 * pay (issue 21, cold start).
 */
export function loadSlugify(): Promise<Slugify> {
  loading ??= import('@sindresorhus/slugify').then((module) => module.default);
  return loading;
}
