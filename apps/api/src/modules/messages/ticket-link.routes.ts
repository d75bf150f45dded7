import { ticketPageUrl } from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { BookingAccess } from '../../core/access/booking-access.js';
import { bookingOfTicketLink, normalizeTicketLinkCode } from '../../core/access/ticket-links.js';
import { limiter } from '../../limits/limiter.js';

/** Where a link that opens no ticket goes: My bookings, where a ticket is found by its code. */
const NO_TICKET = '/my-bookings';

/**
 * `/t/{code}`, a booking's short link in its SMS (decision 141): a redirect to the ticket page
 * with its key in the fragment, as the long link carried it. A code that opens no ticket (mistyped,
 * or a booking never paid) goes to My bookings. Opening is limited per address.
 */
export function ticketLinkRoutes(deps: AppDeps, access: BookingAccess): FastifyPluginAsyncZod {
  const limits = limiter(deps.db, deps.clock, deps.config);
  return async (app) => {
    app.get(
      '/t/:code',
      { schema: { params: z.object({ code: z.string().max(40) }) } },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        reply.header('referrer-policy', 'no-referrer');
        const code = normalizeTicketLinkCode(req.params.code);
        if (!code) return reply.redirect(NO_TICKET, 302);
        await limits.enforce(reply, [{ limit: 'ticket-link-opens-per-address', of: req.ip }]);
        const booking = await bookingOfTicketLink(deps.db, code);
        if (!booking?.ticket_code) return reply.redirect(NO_TICKET, 302);
        const key = access.keyFor(booking.id);
        return reply.redirect(ticketPageUrl('', booking.ticket_code, { k: key }), 302);
      },
    );
  };
}
