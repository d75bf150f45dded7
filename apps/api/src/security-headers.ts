import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for `options`, computed once. @fastify/helmet rebuilt helmet's
 * middleware for every request (re-parsing the CSP directives each time): a few percent of
 * a cached catalogue read. Our headers do not vary per request (no nonce, no function
 * directive), so they are the same bytes every time.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const directives =
    typeof options.contentSecurityPolicy === 'object'
      ? (options.contentSecurityPolicy.directives ?? {})
      : {};
  for (const [name, value] of Object.entries(directives)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'function')) {
      throw new Error(`CSP directive ${name} varies per request; it cannot be precomputed`);
    }
  }
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * What an API answer needs (JSON, a CSV, a PDF, an error): nothing in it may load, run or be
 * framed, nothing is sniffed, no referrer leaves. The pages' policy (script and style hashes,
 * images, the socket's origin) is for the HTML a browser renders; on an API answer it was a
 * kilobyte in twelve headers, each one checked by Node on every read.
 */
export function apiSecurityHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
  const hsts = pageHeaders['strict-transport-security'];
  if (hsts) headers['strict-transport-security'] = hsts;
  return headers;
}

/**
 * Sets the security headers on every answer (errors and 404s included), as helmet did: the
 * pages' under any path, the API's short set under /api/.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const page = securityHeaders(options);
  const api = apiSecurityHeaders(page);
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(req.url.startsWith('/api/') ? api : page);
    done();
  });
}
