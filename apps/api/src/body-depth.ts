import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * The deepest nesting of objects and arrays a request body may have. No route takes more
 * than a few levels; a provider's callback is flat. Anything deeper is refused before it is
 * parsed, so no later walk of the body (validation, the encoding checks of callbacks, a
 * stored copy) can run out of stack: 3,000 levels overflowed one.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Whether JSON text nests objects and arrays deeper than `limit`, read character by
 * character without parsing (no recursion; brackets inside strings do not count). Malformed
 * text is left to the parser, which refuses it anyway.
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

type Done = (err: Error | null, body?: unknown) => void;
/** Fastify's default JSON parser is the callback form (lib/content-type-parser.js). */
type CallbackParser = (req: FastifyRequest, body: string, done: Done) => void;

/**
 * Replaces the JSON body parser of `app` (and of every plugin registered after this) with
 * Fastify's own, behind a depth check: 400 BODY_TOO_DEEP. Form bodies are flat
 * (URLSearchParams) and query strings too (Fastify's parser does not nest), so JSON is the
 * one way in for a deep value.
 */
export function boundBodyDepth(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error') as CallbackParser;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, raw, done) => {
    // parseAs 'string' gives a string; the type allows a Buffer too.
    const body = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (jsonNestsDeeperThan(body, MAX_BODY_DEPTH)) {
      done(
        new AppError(
          400,
          'BODY_TOO_DEEP',
          `The request body nests objects or arrays more than ${MAX_BODY_DEPTH} levels deep.`,
        ),
        undefined,
      );
      return;
    }
    parseJson(req, body, done);
  });
}
