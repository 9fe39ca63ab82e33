/**
 * `name` as a property key in the source of a compiled object literal (`new Function`): a JSON
 * string literal, so no name can escape it, and `__proto__` computed (`["__proto__"]`), which
 * makes an own property where the plain key would set the object's prototype.
 *
 *   'title' → '"title"';   'a"b' → '"a\"b"';   '__proto__' → '["__proto__"]'
 */
export function literalKey(name: string): string {
  const key = JSON.stringify(name);
  return name === '__proto__' ? `[${key}]` : key;
}
