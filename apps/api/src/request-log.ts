import type { FastifyRequest } from 'fastify';

/**
 * What a request log line says about the request. Fastify's default logs `req.url` whole;
 * a provider's GET callback carries its signature in the query string, and a signature in
 * a log is one anyone reading logs can replay: callback URLs are logged without the query.
 */
export function serializeRequest(req: FastifyRequest) {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  const secret = url.includes('/payment/callback/') && query >= 0;
  // An invitation link's token travels in this path: a log line must not carry it.
  const logged = (secret ? `${url.slice(0, query)}?[redacted]` : url).replace(
    /(\/auth\/invitations\/)[^/?]+/,
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
