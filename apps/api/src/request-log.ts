import type { FastifyRequest } from 'fastify';

/**
 * What a request log line says about the request. Fastify's default logs `req.url` whole;
 * a provider's GET callback carries its signature in the query string, and a signature in
 * a log is one anyone reading logs can replay: callback URLs are logged without the query.
 */
export function serializeRequest(req: FastifyRequest) {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  // The web app's pages are path routes (decision 107): a ticket page's query may hold its
  // access key (`?k=`) or signed token (`?t=`) when someone reloads it before the app
  // dropped the key.
  const secret = (url.includes('/payment/callback/') || url.startsWith('/ticket/')) && query >= 0;
  // An invitation or password-reset token travels in these paths (the API's and the
  // pages'): a log line must not carry it.
  const logged = (secret ? `${url.slice(0, query)}?[redacted]` : url).replace(
    /(\/auth\/invitations\/|^\/invite\/|^\/reset-password\/)[^/?]+/,
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
