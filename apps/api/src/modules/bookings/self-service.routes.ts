import {
  BOOKING_KEY_HEADER,
  bookingWhatsAppRequestSchema,
  customerBookingResponseSchema,
  idSchema,
  rescheduleRequestSchema,
  TICKET_CODE_PATTERN,
  ticketAccessRequestSchema,
  ticketAccessResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { AppError, errorResponses } from '../../errors.js';
import { limiter } from '../../limits/limiter.js';
import type { SelfService } from './self-service.service.js';

const bookingParams = withFieldCodes(z.object({ bookingId: idSchema }), {
  bookingId: 'INVALID_ID',
});
const codeParams = withFieldCodes(z.object({ code: z.string().max(20) }), {
  code: 'INVALID_TICKET',
});

/** The access key a request presents: the X-Booking-Key header (never the URL: it is logged). */
function keyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers[BOOKING_KEY_HEADER];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Customer self-service: public routes, each protected by the booking's access
 * key (or, for /access, by the ticket code plus the phone's last four digits). Answers name
 * the customer and carry the ticket's token: never cached.
 */
export function selfServiceRoutes(
  { db, clock, config }: AppDeps,
  selfService: SelfService,
): FastifyPluginAsyncZod {
  const limits = limiter(db, clock, config);
  return async (app) => {
    app.addHook('onRequest', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(
      '/bookings/:bookingId',
      {
        schema: {
          params: bookingParams,
          response: { 200: customerBookingResponseSchema, ...errorResponses(400, 403, 404) },
        },
      },
      async (req) => ({
        booking: await selfService.view(req.params.bookingId, keyOf(req.headers)),
      }),
    );

    app.post(
      '/bookings/:bookingId/cancel',
      {
        schema: {
          params: bookingParams,
          response: {
            200: customerBookingResponseSchema,
            ...errorResponses(400, 403, 404, 409, 413, 415),
          },
        },
      },
      async (req) => ({
        booking: await selfService.cancel(req.params.bookingId, keyOf(req.headers)),
      }),
    );

    app.post(
      '/bookings/:bookingId/reschedule',
      {
        schema: {
          params: bookingParams,
          body: rescheduleRequestSchema,
          response: {
            200: customerBookingResponseSchema,
            ...errorResponses(400, 403, 404, 409, 413, 415),
          },
        },
      },
      async (req) => ({
        booking: await selfService.reschedule(req.params.bookingId, keyOf(req.headers), req.body),
      }),
    );

    app.post(
      '/bookings/:bookingId/whatsapp',
      {
        schema: {
          params: bookingParams,
          body: bookingWhatsAppRequestSchema,
          response: {
            200: customerBookingResponseSchema,
            ...errorResponses(400, 403, 404, 409, 413, 415),
          },
        },
      },
      async (req) => ({
        booking: await selfService.setWhatsApp(
          req.params.bookingId,
          keyOf(req.headers),
          req.body.on,
        ),
      }),
    );

    app.post(
      '/tickets/:code/access',
      {
        config: { touchesCatalog: false },
        // A flood from one client, or from everyone, stops here before any guess is counted.
        preHandler: (req, reply) =>
          limits.enforce(reply, [
            { limit: 'ticket-access-requests', of: req.ip },
            { limit: 'ticket-access-requests-all' },
          ]),
        schema: {
          params: codeParams,
          body: ticketAccessRequestSchema,
          response: {
            200: ticketAccessResponseSchema,
            ...errorResponses(400, 404, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        const code = req.params.code.toUpperCase();
        if (!TICKET_CODE_PATTERN.test(code)) {
          throw new AppError(400, 'INVALID_TICKET', 'A ticket code looks like QL-7K4M-2QAB-XC9D.');
        }
        return selfService.accessByCode(reply, {
          code,
          ip: req.ip,
          key: req.body.key,
          ...(req.body.phone_last4 !== undefined ? { phone_last4: req.body.phone_last4 } : {}),
        });
      },
    );
  };
}
