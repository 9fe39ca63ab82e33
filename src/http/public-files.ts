import { resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isActiveContentType } from './active-content.js';

/** What a browser is told about a file someone uploaded whose type it would run (HTML, SVG, XML, scripts). */
const ACTIVE_FILE_HEADERS = {
  'content-disposition': 'attachment',
  'content-security-policy': "default-src 'none'; sandbox",
} as const;

/**
 * Serves `publicDir` at `/` (GET paths no route claims: uploads at /uploads/…; anything not
 * there falls through to the 404 envelope; dotfiles, such as the upload temp folder, never
 * served). Every file is sent with `X-Content-Type-Options: nosniff`, so a browser never guesses
 * an executable type from the bytes. A file from `public/uploads` (what users uploaded) whose
 * type a browser runs as a page or a script is sent as an attachment under a CSP that runs
 * nothing (`default-src 'none'; sandbox`): following a link to it downloads it, while
 * `<img src>` of an SVG still shows the image. The decision is made on the file actually served,
 * whatever spelling of the URL reached it, and holds whether or not the project keeps
 * `strapi::security`.
 */
export async function registerPublicFiles(app: FastifyInstance, publicDir: string): Promise<void> {
  const uploads = resolve(publicDir, 'uploads') + sep;
  const setHeaders = (reply: FastifyReply, path: string) => {
    reply.header('x-content-type-options', 'nosniff');
    const type = reply.getHeader('content-type');
    if (resolve(path).startsWith(uploads) && typeof type === 'string' && isActiveContentType(type))
      reply.headers(ACTIVE_FILE_HEADERS);
  };
  await app.register(fastifyStatic, {
    root: publicDir,
    prefix: '/',
    wildcard: true,
    index: false,
    list: false,
    dotfiles: 'ignore',
    decorateReply: false,
    setHeaders,
  });
}
