import { performance } from 'node:perf_hooks';
import { BOOKING_KEY_HEADER } from '@qless/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER, withRequestId } from './request-context.js';

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
    // A visit's page and its turn (decision 120): an older link's `?k=`, the poll's `?key=`.
    path.startsWith('/visit/') ||
    path.startsWith('/api/v1/visits/') ||
    path.startsWith('/api/v1/bookings/') ||
    path.startsWith('/api/v1/tickets/') ||
    // An operator's export names one person by phone or e-mail (decision 031).
    path.startsWith('/api/v1/platform/personal-data') ||
    // WhatsApp's subscription check carries the verify token (decision 144).
    path.startsWith('/api/v1/whatsapp/')
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
  // holds it answers for the visit), a waitlist offer's link (it names a person's entry), a
  // kiosk's link (whoever holds it adds visitors to the line), a slip's short code (it
  // opens the visitor's turn), a booking's short link (it opens the ticket) and the SMS gateway's secret path: a log line must not carry it.
  const logged = shown.replace(
    /(\/auth\/invitations\/|^\/invite\/|^\/reset-password\/|^\/api\/v1\/board\/|^\/board\/|^\/api\/v1\/feedback\/|^\/feedback\/|^\/w\/|^\/api\/v1\/kiosk\/|^\/kiosk\/|^\/api\/v1\/follow\/|^\/f\/|^\/t\/|^\/api\/v1\/sms\/inbound\/|^\/api\/v1\/sms\/delivery\/)[^/?]+/,
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

/** Enough of a user agent to tell a phone's browser from a script, never a whole header. */
const USER_AGENT_CHARS = 120;

function requestLine(req: FastifyRequest, route: string, status: number, ms: number) {
  const ua = req.headers['user-agent'];
  return {
    method: req.method,
    route,
    url: serializeRequest(req).url,
    status,
    ms: Math.round(ms * 10) / 10,
    ip: req.ip,
    ua: typeof ua === 'string' ? ua.slice(0, USER_AGENT_CHARS) : undefined,
  };
}

/** Levels at which the request line (info) is not written. */
const QUIETER_THAN_INFO = new Set(['warn', 'error', 'fatal', 'silent']);

/**
 * One JSON line per request, written when it is answered (Fastify's own pair of lines is
 * off): its id, method, route pattern, the URL as serializeRequest redacts it, status,
 * duration, client address and a short user agent; and the request counted in `metrics`.
 * A live socket (an upgrade the socket route took over) gets its line when it closes:
 * status 101 and how long it was open; it is counted by the socket metrics, not here.
 * The request id (an accepted X-Request-Id, else a new one: genReqId in app.ts) is echoed
 * in the response and carried, through AsyncLocalStorage, into the rows the request writes
 * for background work (see request-context.ts).
 */
export function registerRequestLog(
  app: FastifyInstance,
  metrics: { request(method: string, route: string, status: number, seconds: number): void },
): void {
  const answered = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    if (req.headers.upgrade?.toLowerCase() === 'websocket') {
      const opened = performance.now();
      req.raw.socket.once('close', () => {
        if (answered.has(req)) return;
        const route = req.routeOptions.url ?? 'unmatched';
        req.log.info(requestLine(req, route, 101, performance.now() - opened), 'request');
      });
    }
    withRequestId(req.id, done);
  });
  // A body is read in the socket's context, not the request's: enter it again for the handler.
  // Without a body (GET, HEAD) the hooks ran on in the request's context.
  app.addHook('preHandler', (req, _reply, done) => {
    if (req.method === 'GET' || req.method === 'HEAD') return done();
    withRequestId(req.id, done);
  });
  app.addHook('onResponse', (req, reply, done) => {
    answered.add(req);
    const route = req.routeOptions.url ?? 'unmatched';
    const ms = reply.elapsedTime;
    metrics.request(req.method, route, reply.statusCode, ms / 1000);
    // Built only when written: at LOG_LEVEL=warn the line would cost every request for nothing.
    if (!QUIETER_THAN_INFO.has(req.log.level)) {
      req.log.info(requestLine(req, route, reply.statusCode, ms), 'request');
    }
    done();
  });
}
