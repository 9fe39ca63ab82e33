#!/usr/bin/env node
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/cairn.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write(
    'cairn: dist/cairn.mjs is missing: build Cairn first (npm ci, which builds; README, "Production")\n',
  );
  process.exitCode = 1;
} else {
  const { main } = await import(bundle.href);
  main(process.argv.slice(2)).then(
    (code) => {
      if (typeof code === 'number') process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
