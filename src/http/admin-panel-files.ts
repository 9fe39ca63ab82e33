import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where a project keeps the admin panel `strapi build` wrote: `build/` (JavaScript) or `dist/build/` (TypeScript). */
export function findAdminBuild(projectDir: string): string | null {
  for (const candidate of [join(projectDir, 'build'), join(projectDir, 'dist', 'build')]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate;
  }
  return null;
}

/** The page `/admin` answers when the project has no build: how to get one. */
const NO_BUILD_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Admin panel not built</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5}code{background:#f2f2f5;padding:.1rem .3rem}</style>
</head><body><h1>This project has no admin panel build</h1>
<p>Cairn serves the admin panel that Strapi builds for the project; it never builds it itself.
In the Strapi project, run <code>npx strapi build</code> (it writes <code>build/</code>, or <code>dist/build/</code> for a
TypeScript project), then restart <code>cairn start</code>.</p>
<p>The content API answers under <code>/api</code> meanwhile.</p></body></html>`;

/**
 * Serves the project's admin panel build at `url` (`/admin`): its files as they are (hashed
 * assets cached for a year, `index.html` never cached), and `index.html` for every other path
 * under it, since the panel routes on the client (`/admin/content-manager/…`). Routes the server
 * declares under the same prefix (`/admin/init`, `/admin/login`…) win over these, being more
 * specific. Without a build, `/admin` answers a page saying how to get one.
 */
export async function registerAdminPanel(app: FastifyInstance, url: string, buildDir: string | null): Promise<void> {
  // Only a browser navigating gets the page: an API client asking for an unknown admin route gets the 404 envelope.
  const wantsPage = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');
  if (!buildDir) {
    for (const path of [url, `${url}/*`])
      app.get(path, async (request, reply) =>
        wantsPage(request) || request.url === url
          ? reply.type('text/html; charset=utf-8').send(NO_BUILD_PAGE)
          : reply.callNotFound(),
      );
    return;
  }
  const root = resolve(buildDir);
  await app.register(fastifyStatic, { root, serve: false, decorateReply: true, index: false });
  const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  app.get(url, async (_request, reply) => sendIndex(reply));
  app.get(`${url}/*`, async (request, reply) => {
    const relative = (request.params as { '*': string })['*'];
    const file = resolve(root, relative);
    if (relative !== '' && file.startsWith(root + sep) && isFile(file)) {
      return reply.header('cache-control', 'public, max-age=31536000, immutable').sendFile(relative, root);
    }
    return wantsPage(request) ? sendIndex(reply) : reply.callNotFound();
  });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
