import { describe, expect, it } from 'vitest';
import { isGeneratedBoilerplate } from './generated-boilerplate.js';

/** Strapi 5.54's generator templates (@strapi/generators, create-strapi-app), filled in. */
const GENERATED = {
  'TypeScript core controller': `/**\n * article controller\n */\n\nimport { factories } from '@strapi/strapi';\n\nexport default factories.createCoreController('api::article.article');\n`,
  'JavaScript core service': `'use strict';\n\n/**\n * article service\n */\n\nconst { createCoreService } = require('@strapi/strapi').factories;\n\nmodule.exports = createCoreService('api::article.article');\n`,
  'required factories, core router': `"use strict";\nconst { factories } = require("@strapi/strapi");\nmodule.exports = factories.createCoreRouter("api::tag.tag")\n`,
  'TypeScript src/index': `// import type { Core } from '@strapi/strapi';\n\nexport default {\n  /**\n   * An asynchronous register function\n   */\n  register(/* { strapi }: { strapi: Core.Strapi } */) {},\n\n  bootstrap(/* { strapi }: { strapi: Core.Strapi } */) {},\n};\n`,
  'JavaScript src/index': `'use strict';\n\nmodule.exports = {\n  register(/*{ strapi }*/) {},\n  bootstrap(/*{ strapi }*/) {},\n};\n`,
};

/** Files a project changed: each runs code of its own. */
const CUSTOM = {
  'an overridden action': `import { factories } from '@strapi/strapi';\nexport default factories.createCoreController('api::article.article', ({ strapi }) => ({\n  async find(ctx) { return super.find(ctx); },\n}));\n`,
  'a router with config': `const { createCoreRouter } = require('@strapi/strapi').factories;\nmodule.exports = createCoreRouter('api::article.article', { config: { find: { policies: ['is-owner'] } } });\n`,
  'a bootstrap that does something': `export default {\n  register() {},\n  bootstrap({ strapi }) { strapi.log.info('hi'); },\n};\n`,
  'an extra statement': `import { factories } from '@strapi/strapi';\nconsole.log('loaded');\nexport default factories.createCoreService('api::tag.tag');\n`,
  'a plain route file': `export default { routes: [{ method: 'GET', path: '/hello', handler: 'hello.index' }] };\n`,
};

describe('isGeneratedBoilerplate', () => {
  for (const [name, source] of Object.entries(GENERATED)) {
    it(`recognises ${name}`, () => expect(isGeneratedBoilerplate(source)).toBe(true));
  }
  for (const [name, source] of Object.entries(CUSTOM)) {
    it(`counts ${name} as custom code`, () => expect(isGeneratedBoilerplate(source)).toBe(false));
  }
});
