import {
  idSchema,
  localPart,
  WAITLIST_KEY_HEADER,
  waitlistJoinRequestSchema,
  waitlistJoinResponseSchema,
  waitlistWithdrawParamsSchema,
  waitlistWithdrawQuerySchema,
  waitlistWithdrawResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, errorResponses } from '../../errors.js';
import type { Limiter } from '../../limits/limiter.js';
import type { WaitlistService } from './waitlist.service.js';
import { expandId } from './waitlist-text.js';

const serviceParams = withFieldCodes(z.object({ serviceId: idSchema }), {
  serviceId: 'INVALID_ID',
});
/** The waitlist writes none of the catalogue's tables (the read cache need not hear of it). */
const WAITLIST_WRITE = { touchesCatalog: false } as const;

/**
 * The public waitlist of full days (decision 023): join (no SMS is sent), withdraw with the
 * key answered at join. Joins are counted per client address before any work, and per number
 * once the join could succeed (a listed service, a full day ahead).
 */
export function waitlistRoutes(waitlist: WaitlistService, limits: Limiter): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/service/:serviceId/waitlist',
      {
        config: WAITLIST_WRITE,
        schema: {
          params: serviceParams,
          body: waitlistJoinRequestSchema,
          response: {
            201: waitlistJoinResponseSchema,
            ...errorResponses(400, 404, 409, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        await limits.enforce(reply, [{ limit: 'waitlist-joins-per-address', of: req.ip }]);
        const joined = await waitlist.join(req.params.serviceId, req.body, req.ip, () =>
          limits.enforce(reply, [{ limit: 'waitlist-joins-per-phone', of: req.body.phone }]),
        );
        return reply.code(joined.status).send(joined.body);
      },
    );

    app.delete(
      '/service/:serviceId/waitlist/:entryId',
      {
        config: WAITLIST_WRITE,
        schema: {
          params: waitlistWithdrawParamsSchema,
          querystring: waitlistWithdrawQuerySchema,
          response: { 200: waitlistWithdrawResponseSchema, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        // The key in its header (the web app), else an older client's `?key=` (decision 124).
        const header = req.headers[WAITLIST_KEY_HEADER];
        const key = typeof header === 'string' && header !== '' ? header : req.query.key;
        if (!key || key.length < 20 || key.length > 100) {
          throw new AppError(404, 'WAITLIST_ENTRY_NOT_FOUND', 'No such entry on the waitlist.');
        }
        const entry = await waitlist.withdraw(req.params.serviceId, req.params.entryId, key);
        return { entry };
      },
    );
  };
}

/**
 * `/w/{code}`, the short link of an offer SMS (a UUID in 22 characters): a redirect to the
 * slots page of the day, opening the booking modal on the offered slot. An unknown code goes
 * to the home page. While the offer is open, the fragment carries the number it was sent
 * to (`#tel=677123456`), so the booking form opens with it filled in: a fragment
 * never reaches a server or its logs, and a lapsed or used link shows no number.
 */
export function waitlistLinkRoutes(waitlist: WaitlistService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/w/:code',
      { schema: { params: z.object({ code: z.string().max(40) }) }, config: WAITLIST_WRITE },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const id = expandId(req.params.code);
        const entry = id ? await waitlist.linkTarget(id) : undefined;
        if (!entry) return reply.redirect('/', 302);
        const query = new URLSearchParams({ date: entry.booking_date });
        if (entry.offered_slot_id) query.set('slot', entry.offered_slot_id);
        const tel = entry.state === 'offered' ? `#tel=${localPart(entry.phone)}` : '';
        return reply.redirect(
          `/service/${encodeURIComponent(entry.service_id)}/slots?${query.toString()}${tel}`,
          302,
        );
      },
    );
  };
}
