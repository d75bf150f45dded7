import {
  ticketResponseSchema,
  ticketVerifyRequestSchema,
  ticketVerifyResponseSchema,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { AppError } from '../../errors.js';
import { TICKET_CODE_PATTERN } from './ticket-code.js';
import {
  findTicketByCode,
  isTicketValid,
  type TicketSigner,
  toTicket,
  verifyTicketToken,
} from './tickets.service.js';

export function ticketsRoutes({ db }: AppDeps, signer: TicketSigner): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/tickets/:code',
      {
        config: { rateLimit: { max: 30, timeWindow: 60_000 } },
        schema: {
          params: z.object({ code: z.string().max(20) }),
          response: { 200: ticketResponseSchema, 400: z.unknown(), 404: z.unknown() },
        },
      },
      async (req) => {
        const code = req.params.code.toUpperCase();
        if (!TICKET_CODE_PATTERN.test(code)) {
          throw new AppError(400, 'INVALID_TICKET', 'A ticket code looks like QL-7K4M-2Q.');
        }
        const record = await findTicketByCode(db, code);
        if (!record || !isTicketValid(record.status)) {
          throw new AppError(404, 'TICKET_NOT_FOUND', 'No ticket with this code.');
        }
        // Whoever holds the code sees the booking, but not the full contact details.
        return { ticket: await toTicket(signer, record, { reveal: false }) };
      },
    );

    app.post(
      '/tickets/verify',
      {
        schema: {
          body: ticketVerifyRequestSchema,
          response: { 200: ticketVerifyResponseSchema, 400: z.unknown() },
        },
      },
      async (req) => verifyTicketToken(db, signer, req.body.token),
    );
  };
}
