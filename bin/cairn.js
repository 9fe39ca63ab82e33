#!/usr/bin/env node
// CommonJS (bin/package.json): with nothing but CommonJS on its way, a start never loads Node's ES
// module loader (~10 ms of every start).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '../dist');
const bundle = join(dist, 'cairn.cjs');
if (!existsSync(bundle)) {
  process.stderr.write(
    'cairn: dist/cairn.cjs is missing: build Cairn first (npm ci, which builds; README, "Production")\n',
  );
  process.exitCode = 1;
} else {
  const argv = process.argv.slice(2);
  const command = require(join(dist, 'cli-command.cjs')).commandOf(argv);
  const server = command === 'start' || command === 'develop';
  // A server holds V8's young generation at its initial size from before it loads the bundle
  // until it is busy (src/cli/young-generation.ts).
  if (server) require(join(dist, 'young-generation.cjs')).holdYoungGeneration();
  // The bundle is loaded with V8's code cache, which it saves once a server has started or a
  // command has finished, when there was none (src/cli/load-bundle.ts).
  const loaded = require(join(dist, 'load-bundle.cjs')).loadBundle(bundle, {
    variant: server ? 'server' : `command ${command ?? ''}`,
  });
  // A command that has finished exits once its output is written, whatever it may have left
  // open (seen once: a MySQL connection kept a failed import waiting for ever); a server (`start`,
  // no exit code) keeps running.
  const exit = (code) => process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  const hooks = { afterStart: () => loaded.saveCompileCache(), savesCompileCache: loaded.savesCompileCache };
  loaded.exports.main(argv, hooks).then(
    (code) => {
      if (typeof code !== 'number') return;
      if (code === 0) loaded.saveCompileCache();
      exit(code);
    },
    (error) => {
      process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
      exit(1);
    },
  );
}
