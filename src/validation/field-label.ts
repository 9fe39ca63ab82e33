/**
 * The yup-style label of a field path, as Strapi's messages print it:
 * `['seo', 'keywords', '0', 'word']` → `seo.keywords[0].word`.
 */
export function fieldLabel(path: readonly string[]): string {
  return path
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
}
