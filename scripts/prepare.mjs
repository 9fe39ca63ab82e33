// npm runs `prepare` after `npm ci` / `npm install` in a clone of Cairn. With the dev dependencies
// installed (a development or build install) it builds dist/ with `npm run build`. A production
// install (`npm ci --omit=dev`) has no TypeScript or esbuild: it keeps the dist/ built before it,
// or says how to get one, and never fails the install (the README's "Production" section).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const installed = (name) => {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
};

if (installed('typescript') && installed('esbuild')) {
  // npm sets npm_execpath to its own CLI script in lifecycle scripts; run by hand, npm is on PATH.
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(result.status ?? 1);
}
if (existsSync(new URL('../dist/cairn.cjs', import.meta.url))) {
  console.log('cairn: production install (no build tools): keeping the dist/ built before');
} else {
  console.warn(
    'cairn: the build tools (dev dependencies) are not installed, so dist/ was not built and Cairn cannot start. ' +
      'Build before dropping them: npm ci && npm prune --omit=dev (README, "Production").',
  );
}
