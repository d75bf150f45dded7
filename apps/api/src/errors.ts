import type { ErrorBody, ErrorCode } from '@qless/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** The one way handlers report a failure the client should see. */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: ErrorCode,
    message: string,
    public readonly details?: ErrorBody['details'],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (code: ErrorCode, message: string) => new AppError(404, code, message);

function fieldPath(instancePath: string, fallback: string): string {
  const p = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return p || fallback;
}

/** Maps every thrown error to `{ code, message }`; 5xx never leaks internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const body: ErrorBody = { code: error.code, message: error.message };
      if (error.details) body.details = error.details;
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'request';
      const details = error.validation.map((v) => ({
        path: fieldPath(v.instancePath, where),
        message: v.message ?? 'Invalid value',
      }));
      const first = details[0];
      const code: ErrorCode =
        where === 'body' && details.some((d) => d.path === 'phone_number')
          ? 'INVALID_PHONE'
          : where === 'params'
            ? 'INVALID_ID'
            : where === 'querystring' && details.some((d) => ['start', 'end'].includes(d.path))
              ? 'INVALID_DATE'
              : 'VALIDATION_FAILED';
      const message = first ? `${first.path}: ${first.message}` : 'Invalid request';
      return reply.status(400).send({ code, message, details } satisfies ErrorBody);
    }
    // Text the database cannot store (NUL characters, invalid encoding) is the sender's fault.
    const sqlState = (error as { code?: unknown }).code;
    if (sqlState === '22021' || sqlState === '22P05') {
      return reply.status(400).send({
        code: 'VALIDATION_FAILED',
        message: 'The request contains characters that are not allowed.',
      } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({
        code: 'RATE_LIMITED',
        message: 'Too many requests. Please wait a moment and try again.',
      });
    }
    if (status === 413) {
      return reply
        .status(413)
        .send({ code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large.' });
    }
    if (status === 415) {
      return reply
        .status(415)
        .send({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the request body as JSON.' });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (malformed JSON, empty body...): its message is safe and useful.
      return reply.status(status).send({ code: 'VALIDATION_FAILED', message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      code: 'INTERNAL_ERROR',
      message: 'Something went wrong on our side. Please try again.',
    });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      code: 'NOT_FOUND',
      message: `No route for ${request.method} ${request.url.split('?')[0]}`,
    } satisfies ErrorBody);
  });
}
