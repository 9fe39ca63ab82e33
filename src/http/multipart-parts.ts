import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError, ValidationError } from '../core/errors.js';
import type { MultipartLimits, MultipartPart } from './http-types.js';

/**
 * A multipart request's parts, streamed (@fastify/multipart under the limits given): files as
 * their content, fields as text. busboy's limit and parse errors become the catalogue's 4xx.
 */
export async function* multipartParts(request: FastifyRequest, limits: MultipartLimits): AsyncIterable<MultipartPart> {
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: limits.fileSize,
        files: limits.files,
        fields: limits.fields,
        parts: limits.files + limits.fields,
      },
    })) {
      if (part.type === 'file')
        yield {
          kind: 'file',
          name: part.fieldname,
          filename: part.filename,
          mimetype: part.mimetype,
          content: fileContent(part.file),
        };
      else
        yield {
          kind: 'field',
          name: part.fieldname,
          value: typeof part.value === 'string' ? part.value : String(part.value),
        };
    }
  } catch (error) {
    throw translateMultipartError(error);
  }
}

async function* fileContent(stream: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  try {
    for await (const chunk of stream) yield chunk;
  } catch (error) {
    throw translateMultipartError(error);
  }
}

/** busboy's limit errors as the catalogue's 4xx (a file over the size limit: 413 `FileTooBig`, as Strapi). */
function translateMultipartError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new PayloadTooLargeError('FileTooBig');
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new ValidationError('Too many parts in the multipart body');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new ValidationError('The multipart body is malformed');
  if (
    error instanceof Error &&
    /Unexpected end of (form|multipart data)|Part terminated early|Malformed part header|Boundary not found/i.test(
      error.message,
    )
  )
    return new ValidationError('The multipart body is malformed');
  return error;
}
