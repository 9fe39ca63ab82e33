#!/usr/bin/env node
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/cairn.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write(
    'cairn: dist/cairn.mjs is missing: build Cairn first (npm ci, which builds; README, "Production")\n',
  );
  process.exitCode = 1;
} else {
  // A server holds V8's young generation at its initial size from before it loads the bundle
  // until it is busy (src/cli/young-generation.ts).
  if (process.argv[2] === 'start' || process.argv[2] === 'develop')
    (await import(new URL('../dist/young-generation.mjs', import.meta.url).href)).holdYoungGeneration();
  const { main } = await import(bundle.href);
  // A command that has finished exits once its output is written, whatever it may have left
  // open (seen once: a MySQL connection kept a failed import waiting for ever); a server (`start`,
  // no exit code) keeps running.
  const exit = (code) => process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  main(process.argv.slice(2)).then(
    (code) => {
      if (typeof code === 'number') exit(code);
    },
    (error) => {
      process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
      exit(1);
    },
  );
}
