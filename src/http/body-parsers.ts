import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { BodySyntaxError, ValidationError } from '../core/errors.js';
import { MAX_BODY_DEPTH, pathBeyondDepth, printDepthPath } from '../core/nesting-depth.js';

/**
 * Request body parsing as Strapi's koa-body does it:
 * - JSON (`application/json`, `*+json`): strict — only objects and arrays; an empty body is
 *   "no body"; anything else not starting with `{` or `[` (whitespace alone, `5`, `nope`) is
 *   koa-body's 400 `SyntaxError` "only supports object and array"; a syntax error is a 400
 *   `SyntaxError` carrying the parser's message; nesting beyond MAX_BODY_DEPTH is a 400
 *   `ValidationError` naming where (so nothing recursive ever meets it).
 * - `application/x-www-form-urlencoded`: parsed with qs (`data[title]=x` → `{ data: { title } }`).
 * - anything else: read (so the size limit applies) and ignored.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = (
    _request: unknown,
    body: string | Buffer,
    done: (error: Error | null, value?: unknown) => void,
  ) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') return done(null, undefined);
    // koa-body's strict mode: only an object or an array, checked before parsing.
    const first = text.trimStart()[0];
    if (first !== '{' && first !== '[')
      return done(new BodySyntaxError('invalid JSON, only supports object and array'), undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return done(new BodySyntaxError((error as Error).message), undefined);
    }
    const tooDeep = pathBeyondDepth(parsed, MAX_BODY_DEPTH);
    if (tooDeep) return done(tooDeepError(tooDeep), undefined);
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

function tooDeepError(path: readonly string[]): ValidationError {
  return new ValidationError(
    `The request body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep (at ${printDepthPath(path)})`,
    { path: path.slice(0, 6), limit: MAX_BODY_DEPTH },
  );
}
