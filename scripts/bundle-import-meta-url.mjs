// Injected into the CommonJS scripts scripts/bundle-cli.mjs writes, where esbuild replaces each
// `import.meta.url` with it: the URL of the script the module is bundled in.
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
