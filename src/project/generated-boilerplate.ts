/**
 * Whether a project code file is one Strapi's generators write unchanged (`strapi generate`, the
 * content-type builder, create-strapi-app's `src/index`): a core controller, service or router
 * made by the factory with no overrides, or a `register`/`bootstrap` pair that does nothing. Such
 * a file does what Cairn does without it, so it is not custom code Cairn would be skipping.
 *
 * Compared after dropping comments, `'use strict'`, whitespace, semicolons and the kind of quote,
 * so the JavaScript and TypeScript templates of Strapi 5 and the `const { factories } = require(…)`
 * form match; any other statement makes it custom code.
 */
export function isGeneratedBoilerplate(source: string): boolean {
  const text = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/"/g, "'")
    .replace(/'use strict'/g, '')
    .replace(/[\s;]+/g, '');
  return GENERATED.some((form) => form.test(text));
}

const UID = String.raw`'[\w.:-]+'`;
const KIND = '(Controller|Service|Router)';
const STRAPI = String.raw`'@strapi/strapi'`;
const GENERATED: readonly RegExp[] = [
  new RegExp(String.raw`^import\{factories\}from${STRAPI}exportdefaultfactories\.createCore${KIND}\(${UID}\)$`),
  new RegExp(
    String.raw`^const\{createCore${KIND}\}=require\(${STRAPI}\)\.factoriesmodule\.exports=createCore\1\(${UID}\)$`,
  ),
  new RegExp(
    String.raw`^const\{factories\}=require\(${STRAPI}\)module\.exports=factories\.createCore${KIND}\(${UID}\)$`,
  ),
  /^(exportdefault|module\.exports=)\{(async)?register\(\)\{\},(async)?bootstrap\(\)\{\},?\}$/,
];
