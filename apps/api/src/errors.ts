import {
  type ErrorBody,
  type ErrorCode,
  errorBodySchema,
  type FieldProblem,
  fieldErrorCode,
} from '@qless/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isOutcomeUnknown } from './db/pg-pool.js';

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

type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 502 | 503;

/**
 * Response schemas of a route's error statuses: every one is the contract's error body.
 * 500 is always declared: any route can fail.
 */
export function errorResponses<S extends ErrorStatus>(
  ...statuses: S[]
): Record<S | 500, typeof errorBodySchema> {
  const all: (S | 500)[] = [...statuses, 500];
  return Object.fromEntries(all.map((s) => [s, errorBodySchema])) as Record<
    S | 500,
    typeof errorBodySchema
  >;
}

export const notFound = (code: ErrorCode, message: string) => new AppError(404, code, message);

type ValidationContext = 'body' | 'params' | 'querystring' | 'headers';

/**
 * Each problem gets the code its schema declares for the field (`withFieldCodes`); a
 * request that is not even an object is INVALID_BODY; nothing is guessed from names.
 */
function fieldProblems(
  issues: { instancePath: string; message?: string }[],
  schema: unknown,
  where: ValidationContext,
): FieldProblem[] {
  return issues.map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const field = path.split('.')[0] ?? '';
    const code: ErrorCode =
      field === '' ? 'INVALID_BODY' : (fieldErrorCode(schema, field) ?? 'VALIDATION_FAILED');
    return { path: path || where, code, message: issue.message ?? 'Invalid value' };
  });
}

const INVALID_URL_BODY: ErrorBody = {
  code: 'INVALID_URL',
  message: 'The address of this request is not valid.',
};

/** Maps every thrown error to `{ code, message }`; 5xx never leaks internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const body: ErrorBody = { code: error.code, message: error.message };
      if (error.details) body.details = error.details;
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = (error.validationContext ?? 'body') as ValidationContext;
      const details = fieldProblems(error.validation, request.routeOptions.schema?.[where], where);
      const first = details[0] ?? { path: where, code: 'INVALID_BODY', message: 'Invalid request' };
      return reply.status(400).send({
        code: first.code,
        message: `${first.path}: ${first.message}`,
        details,
      } satisfies ErrorBody);
    }
    // Text the database cannot store (NUL characters, invalid encoding) is the sender's fault.
    const sqlState = (error as { code?: unknown }).code;
    if (sqlState === '22021' || sqlState === '22P05') {
      return reply.status(400).send({
        code: 'VALIDATION_FAILED',
        message: 'The request contains characters that are not allowed.',
      } satisfies ErrorBody);
    }
    // A read's own bookkeeping (a session touched) is no outcome the caller waits on.
    if (isOutcomeUnknown(error) && request.method !== 'GET' && request.method !== 'HEAD') {
      // The link broke as the write was committing: it may have happened. Read, never repeat.
      request.log.warn({ err: error }, 'database link lost during a commit');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({
          code: 'OUTCOME_UNKNOWN',
          message:
            'The connection was lost while saving: check the current state before trying again.',
        } satisfies ErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      // The request was fine; the pool reconnects by itself once the database is back.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({
          code: 'DATABASE_UNAVAILABLE',
          message: 'The service is briefly unavailable. Please try again in a moment.',
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
    if (status === 414) {
      // A path too long for the file system (static files) or the router.
      return reply.status(414).send(INVALID_URL_BODY);
    }
    if (status === 403 || status === 404) {
      // Plugins' refusals (a static file path that is not allowed, or not there).
      const code = status === 403 ? 'FORBIDDEN' : 'NOT_FOUND';
      return reply.status(status).send({ code, message: error.message } satisfies ErrorBody);
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

/**
 * Errors Fastify raises before any route or hook runs (a URL that does not decode, a path
 * parameter over maxParamLength): Fastify would answer its own body, so the
 * `frameworkErrors` option routes them here to get ours. The URL is not echoed back.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode === 414 ? 414 : error.statusCode === 400 ? 400 : 500;
  const body: ErrorBody =
    status === 500
      ? { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side. Please try again.' }
      : INVALID_URL_BODY;
  reply.status(status).send(body);
}
