import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/schema.js';
import { getOrCreateSecret } from '../db/secrets.js';
import { AppError } from '../errors.js';

/**
 * A gateway's webhook that signs nothing (Africa's Talking's incoming texts and delivery
 * reports): its URL carries a secret of its own, kept in app_secrets, compared in constant time,
 * and redacted from the request log (request-log.ts). The same answer for a wrong secret as for
 * no such route.
 */
export async function secretPathWebhook(db: Db, name: string, path: string) {
  const secret = await getOrCreateSecret(db, name);
  const expected = Buffer.from(secret);
  return {
    /** Refuses (404) a request whose path secret is not this webhook's. */
    check(given: string): void {
      const presented = Buffer.from(given);
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
        throw new AppError(404, 'SMS_INBOUND_NOT_FOUND', 'Not found.');
      }
    },
    /** The address to give the gateway. */
    url(publicOrigin: string): string {
      return `${publicOrigin.replace(/\/+$/, '')}/api/v1${path}/${secret}`;
    },
  };
}

/** Form-encoded bodies (what SMS gateways post), in the encapsulated context `app` only. */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
}
