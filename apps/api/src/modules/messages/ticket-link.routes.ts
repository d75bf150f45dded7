import { ticketPageUrl } from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { BookingAccess } from '../../core/access/booking-access.js';
import { bookingOfTicketLink, normalizeTicketLinkCode } from '../../core/access/ticket-links.js';
import { AppError } from '../../errors.js';
import { limiter } from '../../limits/limiter.js';

/**
 * Where a link that opens no ticket goes: My bookings, where a ticket is found by its code, told
 * why (`link=unknown`: the link opens no ticket; `link=busy`: too many opened from here). A
 * browser gets a page it can read, never an error's JSON.
 */
export const NO_TICKET = '/my-bookings?link=unknown';
export const TOO_MANY_LINKS = '/my-bookings?link=busy';

/**
 * `/t/{code}`, a booking's short link in its SMS (decision 141): a redirect to the ticket page
 * with its key in the fragment, as the long link carried it. A code that opens no ticket (mistyped,
 * cut, or a booking never paid) goes to My bookings, which says so. Opening is limited per
 * address; past the limit, My bookings says to wait.
 */
export function ticketLinkRoutes(deps: AppDeps, access: BookingAccess): FastifyPluginAsyncZod {
  const limits = limiter(deps.db, deps.clock, deps.config);
  return async (app) => {
    app.get(
      '/t/:code',
      { schema: { params: z.object({ code: z.string() }) } },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        reply.header('referrer-policy', 'no-referrer');
        // Whatever was typed or cut: a code is 12 characters, so a long one opens nothing.
        const code = req.params.code.length <= 40 ? normalizeTicketLinkCode(req.params.code) : null;
        if (!code) return reply.redirect(NO_TICKET, 302);
        try {
          await limits.enforce(reply, [{ limit: 'ticket-link-opens-per-address', of: req.ip }]);
        } catch (error) {
          if (error instanceof AppError && error.status === 429) {
            return reply.redirect(TOO_MANY_LINKS, 302);
          }
          throw error;
        }
        const booking = await bookingOfTicketLink(deps.db, code);
        if (!booking?.ticket_code) return reply.redirect(NO_TICKET, 302);
        const key = access.keyFor(booking.id);
        return reply.redirect(ticketPageUrl('', booking.ticket_code, { k: key }), 302);
      },
    );
  };
}
