import { BOOKING_KEY_HEADER } from '@qless/contract';
import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry a secret wherever they appear (a booking's access key sent
 * in the URL instead of its header, a page's `?k=` key or `?t=` token, a signature): their
 * values are never logged, whatever the route, including one that does not exist.
 */
const SECRET_PARAMS = new Set([
  'key',
  'k',
  't',
  'token',
  'signature',
  'sig',
  'access_key',
  'booking_key',
  BOOKING_KEY_HEADER,
  'password',
]);

/**
 * Paths whose whole query is withheld: a provider's GET callback (its signature), the web
 * app's ticket pages (decision 107: `?k=` or `?t=` when reloaded before the app dropped
 * them), and the customer's booking and ticket routes, which take no query at all (a key
 * there is a client's mistake, and nothing else is expected).
 */
function queryIsSecret(path: string): boolean {
  return (
    path.includes('/payment/callback/') ||
    path.startsWith('/ticket/') ||
    path.startsWith('/api/v1/bookings/') ||
    path.startsWith('/api/v1/tickets/') ||
    // An operator's export names one person by phone or e-mail (decision 031).
    path.startsWith('/api/v1/platform/personal-data')
  );
}

function paramName(raw: string): string {
  const name = raw.replaceAll('+', ' ');
  try {
    return decodeURIComponent(name).trim().toLowerCase();
  } catch {
    return name.trim().toLowerCase();
  }
}

/** The query with the values of secret parameters replaced. */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq >= 0 ? pair.slice(0, eq) : pair;
      return SECRET_PARAMS.has(paramName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
}

/**
 * What a request log line says about the request. Fastify's default logs `req.url` whole;
 * a secret in a log is one anyone reading logs can use (replay a callback, open a booking):
 * secret query parameters and the queries of some paths are logged as `[redacted]`.
 */
export function serializeRequest(req: FastifyRequest) {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  const path = at >= 0 ? url.slice(0, at) : url;
  const query = at >= 0 ? url.slice(at + 1) : null;
  const shown =
    query === null
      ? path
      : queryIsSecret(path)
        ? `${path}?[redacted]`
        : `${path}?${redactQuery(query)}`;
  // An invitation or password-reset token travels in these paths (the API's and the
  // pages'), a board's link (whoever holds it shows the queue) and a feedback link (whoever
  // holds it answers for the visit), and a waitlist offer's link (it names a person's entry):
  // a log line must not carry it.
  const logged = shown.replace(
    /(\/auth\/invitations\/|^\/invite\/|^\/reset-password\/|^\/api\/v1\/board\/|^\/board\/|^\/api\/v1\/feedback\/|^\/feedback\/|^\/w\/)[^/?]+/,
    '$1[redacted]',
  );
  return {
    method: req.method,
    url: logged,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
