import { existsSync, readFileSync } from 'node:fs';

/*
 * Tiny provider packages the provider tests write into a test project's node_modules (through
 * startTestServer's `files`), each recording what Cairn hands it as JSON lines in a file named
 * by its providerOptions (`journal`), so a test reads back every call.
 */

/** One recorded call: the method, what it was given (file objects without their bytes), and how. */
export interface JournalEntry {
  readonly method: string;
  readonly args: readonly unknown[];
}

/** Every call recorded in `journal` so far. */
export function readJournal(journal: string): JournalEntry[] {
  if (!existsSync(journal)) return [];
  return readFileSync(journal, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JournalEntry);
}

/** The shared journal writer of the fakes (CommonJS), as module text. */
const RECORD = `
const { appendFileSync } = require('node:fs');
const plain = (value) => value && typeof value === 'object' && !Buffer.isBuffer(value) && typeof value.pipe !== 'function'
  ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k,
      Buffer.isBuffer(v) ? { buffer: v.length } : typeof v === 'function' ? 'function' : v && typeof v.pipe === 'function' ? 'stream' : v]))
  : value;
const record = (journal, method, args) => appendFileSync(journal, JSON.stringify({ method, args: args.map(plain) }) + '\\n');
`;

/**
 * A Strapi email provider (CommonJS, `init(providerOptions, settings)` → `{ send }`) journaling
 * its init and each email; `providerOptions.failWith` makes `send` reject with that message.
 */
export function fakeEmailProvider(name: string): Record<string, string> {
  return {
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, version: '1.0.0', main: 'index.js' }),
    [`node_modules/${name}/index.js`]: `${RECORD}
module.exports = {
  init(providerOptions, settings) {
    record(providerOptions.journal, 'init', [providerOptions, settings]);
    return {
      async send(options) {
        record(providerOptions.journal, 'send', [options]);
        if (providerOptions.failWith) throw new Error(providerOptions.failWith);
      },
    };
  },
};
`,
  };
}

/** The same email provider as an ES module only (`"type": "module"`, `export default { init }`). */
export function fakeEsmEmailProvider(name: string): Record<string, string> {
  return {
    [`node_modules/${name}/package.json`]: JSON.stringify({
      name,
      version: '1.0.0',
      type: 'module',
      exports: './index.js',
    }),
    [`node_modules/${name}/index.js`]: `import { appendFileSync } from 'node:fs';
export default {
  init(providerOptions, settings) {
    appendFileSync(providerOptions.journal, JSON.stringify({ method: 'init', args: [providerOptions, settings] }) + '\\n');
    return {
      send: async (options) =>
        appendFileSync(providerOptions.journal, JSON.stringify({ method: 'send', args: [options] }) + '\\n'),
    };
  },
};
`,
  };
}

/**
 * A Strapi upload provider with `upload` (a buffer, no `uploadStream`), `delete`, `checkFileSize`
 * (refusing files over `providerOptions.maxBytes` with its own message) and no signing: it keeps
 * nothing, answers `https://cdn.example.com/<hash><ext>` URLs and sets `provider_metadata`.
 */
export function fakeUploadProvider(name: string): Record<string, string> {
  return {
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, version: '1.0.0', main: 'index.js' }),
    [`node_modules/${name}/index.js`]: `${RECORD}
module.exports = {
  init(options) {
    record(options.journal, 'init', [options]);
    return {
      upload(file, actionOptions) {
        record(options.journal, 'upload', [file, actionOptions]);
        file.url = 'https://cdn.example.com/' + file.hash + file.ext;
        file.provider_metadata = { public_id: file.hash, resource_type: 'image' };
      },
      delete(file, actionOptions) {
        record(options.journal, 'delete', [file, actionOptions]);
      },
      checkFileSize(file, { sizeLimit }) {
        record(options.journal, 'checkFileSize', [file, { sizeLimit }]);
        if (file.sizeInBytes > options.maxBytes) throw new Error(file.name + ' is over ' + options.maxBytes + ' bytes for this CDN');
      },
    };
  },
};
`,
  };
}

/** A package that is no provider: it exports no `init`. */
export function notAProvider(name: string): Record<string, string> {
  return {
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, version: '1.0.0', main: 'index.js' }),
    [`node_modules/${name}/index.js`]: 'module.exports = { hello: () => "hi" };\n',
  };
}
