import {
  ticketResponseSchema,
  ticketVerifyRequestSchema,
  ticketVerifyResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { AppError, errorResponses } from '../../errors.js';
import { TICKET_CODE_PATTERN } from './ticket-code.js';
import {
  findTicketByCode,
  isTicketValid,
  type TicketSigner,
  toTicket,
  verifyTicketToken,
} from './tickets.service.js';

const codeParams = withFieldCodes(z.object({ code: z.string().max(20) }), {
  code: 'INVALID_TICKET',
});

export function ticketsRoutes({ db }: AppDeps, signer: TicketSigner): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/tickets/:code',
      {
        config: { rateLimit: { max: 30, timeWindow: 60_000 } },
        schema: {
          params: codeParams,
          response: { 200: ticketResponseSchema, ...errorResponses(400, 404, 429) },
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
          response: { 200: ticketVerifyResponseSchema, ...errorResponses(400, 413, 415) },
        },
      },
      async (req) => verifyTicketToken(db, signer, req.body.token),
    );
  };
}
