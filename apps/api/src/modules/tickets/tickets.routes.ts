import {
  ticketLookupResponseSchema,
  ticketVerifyRequestSchema,
  ticketVerifyResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { AppError, errorResponses } from '../../errors.js';
import { clientAddressKey } from '../platform/client-address.js';
import { enforceLimits } from '../platform/db-limits.js';
import { TICKET_CODE_PATTERN } from './ticket-code.js';
import {
  findTicketByCode,
  isTicketValid,
  type TicketSigner,
  toTicketLookup,
  verifyTicketToken,
} from './tickets.service.js';

const codeParams = withFieldCodes(z.object({ code: z.string().max(20) }), {
  code: 'INVALID_TICKET',
});

const MINUTE = 60_000;

export function ticketsRoutes(
  { db, clock, config }: AppDeps,
  signer: TicketSigner,
): FastifyPluginAsyncZod {
  const { ticketPerIp, ticketGlobal } = config.limits;
  // Per client, then for everyone: guessing codes from many addresses still meets a ceiling.
  // Look-ups and verifications count apart so a flood of guesses does not stop check-ins.
  const limitsFor = (route: string, ip: string) => [
    { key: `${route}:ip:${clientAddressKey(ip)}`, max: ticketPerIp, windowMs: MINUTE },
    { key: `${route}:all`, max: ticketGlobal, windowMs: MINUTE },
  ];
  return async (app) => {
    app.get(
      '/tickets/:code',
      {
        preHandler: (req, reply) =>
          enforceLimits(db, clock, reply, limitsFor('ticket-lookup', req.ip)),
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

    // Staff verify the QR token. Who may verify (a staff session) is the organization
    // issue's work; until then the token itself, unforgeable, is what is checked.
    app.post(
      '/tickets/verify',
      {
        preHandler: (req, reply) =>
          enforceLimits(db, clock, reply, limitsFor('ticket-verify', req.ip)),
        schema: {
          body: ticketVerifyRequestSchema,
          response: { 200: ticketVerifyResponseSchema, ...errorResponses(400, 413, 415, 429) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return verifyTicketToken(db, signer, req.body.token);
      },
    );
  };
}
