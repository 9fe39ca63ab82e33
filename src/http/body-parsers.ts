import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { BodySyntaxError } from '../core/errors.js';

/**
 * Request body parsing as Strapi's koa-body does it:
 * - JSON (`application/json`, `*+json`): strict — only objects and arrays; an empty body is
 *   "no body"; a syntax error is a 400 `SyntaxError` carrying the parser's message.
 * - `application/x-www-form-urlencoded`: parsed with qs (`data[title]=x` → `{ data: { title } }`).
 * - anything else: read (so the size limit applies) and ignored.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = (_request: unknown, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return done(new BodySyntaxError((error as Error).message), undefined);
    }
    if (typeof parsed !== 'object' || parsed === null) {
      return done(new BodySyntaxError('invalid JSON, only supports object and array'), undefined);
    }
    return done(null, parsed);
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    done(null, qs.parse(text, { allowDots: false, depth: 20, arrayLimit: 100 }));
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
}
