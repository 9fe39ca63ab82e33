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

/** Answers a GET of the admin panel's URL or of a path under it. */
export type AdminPanelHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | void>;

/**
 * The admin panel at `url` (`/admin`), served from the project's build: its files as they are
 * (hashed assets cached for a year, `index.html` never cached), and `index.html` for every other
 * path under it, since the panel routes on the client (`/admin/content-manager/…`). Routes the
 * server declares under the same prefix (`/admin/init`, `/admin/login`…) are looked up first, by
 * the caller. Without a build, `/admin` answers a page saying how to get one.
 */
export async function adminPanelHandler(
  app: FastifyInstance,
  url: string,
  buildDir: string | null,
): Promise<AdminPanelHandler> {
  // Only a browser navigating gets the page: an API client asking for an unknown admin route gets the 404 envelope.
  const wantsPage = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');
  /** The path under `url` asked for; undefined for `url` itself. */
  const relativeOf = (request: FastifyRequest) => (request.params as { '*'?: string })['*'];
  if (!buildDir) {
    return async (request, reply) =>
      wantsPage(request) || relativeOf(request) === undefined
        ? reply.type('text/html; charset=utf-8').send(NO_BUILD_PAGE)
        : reply.callNotFound();
  }
  const root = resolve(buildDir);
  // cacheControl: false keeps the Cache-Control set here (@fastify/static would replace it with its own max-age).
  await app.register(fastifyStatic, { root, serve: false, decorateReply: true, index: false, cacheControl: false });
  const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  return async (request, reply) => {
    const relative = relativeOf(request);
    if (relative === undefined) return sendIndex(reply);
    const file = resolve(root, relative);
    if (relative !== '' && file.startsWith(root + sep) && isFile(file)) {
      return reply.header('cache-control', 'public, max-age=31536000, immutable').sendFile(relative, root);
    }
    return wantsPage(request) ? sendIndex(reply) : reply.callNotFound();
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
