#!/usr/bin/env node
import { main } from '../dist/cairn.mjs';

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
