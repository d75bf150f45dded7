import {
  ticketLookupResponseSchema,
  ticketPublicKeysResponseSchema,
  ticketVerifyRequestSchema,
  ticketVerifyResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { ROLES_COUNTER, ticketScope } from '../../core/access/roles.js';
import { AppError, errorResponses } from '../../errors.js';
import { limiter } from '../../limits/limiter.js';
import { TICKET_CODE_PATTERN } from './ticket-code.js';
import type { TicketSigner } from './ticket-signer.js';
import { verifyTicketToken } from './ticket-verify.js';
import { findTicketByCode, isTicketValid, toTicketLookup } from './tickets.service.js';

const codeParams = withFieldCodes(z.object({ code: z.string().max(20) }), {
  code: 'INVALID_TICKET',
});

export function ticketsRoutes(
  { db, clock, config, guard }: AppDeps,
  signer: TicketSigner,
): FastifyPluginAsyncZod {
  const limits = limiter(db, clock, config);
  // Per client, then for everyone: guessing codes from many addresses still meets a ceiling.
  // Look-ups and verifications count apart so a flood of guesses does not stop check-ins.
  return async (app) => {
    app.get(
      '/tickets/:code',
      {
        preHandler: (req, reply) =>
          limits.enforce(reply, [
            { limit: 'ticket-lookups', of: req.ip },
            { limit: 'ticket-lookups-all' },
          ]),
        schema: {
          params: codeParams,
          response: { 200: ticketLookupResponseSchema, ...errorResponses(400, 404, 429) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const code = req.params.code.toUpperCase();
        if (!TICKET_CODE_PATTERN.test(code)) {
          throw new AppError(400, 'INVALID_TICKET', 'A ticket code looks like QL-7K4M-2QAB-XC9D.');
        }
        const record = await findTicketByCode(db, code);
        if (!record || !isTicketValid(record.status)) {
          throw new AppError(404, 'TICKET_NOT_FOUND', 'No ticket with this code.');
        }
        return { ticket: toTicketLookup(record) };
      },
    );

    // Public: the key that verifies ticket tokens, for counters that check offline.
    app.get(
      '/tickets/public-key',
      { schema: { response: { 200: ticketPublicKeysResponseSchema, ...errorResponses() } } },
      async (_req, reply) => {
        reply.header('cache-control', 'public, max-age=3600');
        return { keys: signer.publicKeys() };
      },
    );

    // Staff verify a QR token, read-only: whether it may be checked in now, and why not.
    app.post(
      '/tickets/verify',
      {
        config: { touchesCatalog: false },
        onRequest: guard.require(ROLES_COUNTER),
        preHandler: (req, reply) =>
          limits.enforce(reply, [
            { limit: 'ticket-verifications', of: req.ip },
            { limit: 'ticket-verifications-all' },
          ]),
        schema: {
          body: ticketVerifyRequestSchema,
          response: {
            200: ticketVerifyResponseSchema,
            ...errorResponses(400, 401, 403, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const { user } = authOf(req);
        return verifyTicketToken(db, signer, req.body.token, ticketScope(user), clock.now());
      },
    );
  };
}
