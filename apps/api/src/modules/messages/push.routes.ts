import {
  type PushAbout,
  pushKeyResponseSchema,
  pushShownRequestSchema,
  pushSubscribeRequestSchema,
  pushSubscribeResponseSchema,
  pushUnsubscribeRequestSchema,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { BookingAccess } from '../../core/access/booking-access.js';
import { opensVisitTurn, type VisitAccess } from '../../core/access/visit-access.js';
import { AppError, errorResponses } from '../../errors.js';
import { limiter } from '../../limits/limiter.js';
import { recordDelivered } from './free-first.js';
import {
  bookingFollowedUntil,
  forgetSubscription,
  type PushAboutKey,
  saveSubscription,
} from './push-subscriptions.js';
import type { WebPush } from './web-push.js';

const DAY = 86_400_000;
/** A visit's phone is followed for a day after it subscribed at most: the visit's own day. */
const VISIT_FOLLOWED_MS = DAY;

const keyRefused = () =>
  new AppError(403, 'PUSH_NOT_FOLLOWED', "This page's key does not open this booking or visit.");

/**
 * Web push (decision 142): the server's public key; a phone subscribing for a booking (with its
 * customer key) or a visit (with its key), or unsubscribing; and the service worker's word that it showed a push
 * (only that counts as delivered, and it spares the SMS waiting behind).
 */
export function pushRoutes(
  deps: AppDeps,
  push: WebPush,
  access: { bookings: BookingAccess; visits: VisitAccess },
): FastifyPluginAsyncZod {
  const { db, clock } = deps;
  const limits = limiter(db, clock, deps.config);

  /** The booking or visit a key opens (refused otherwise), whatever its state. */
  async function opened(about: PushAbout, key: string) {
    if ('booking' in about) {
      const booking = await db
        .selectFrom('bookings')
        .select(['id', 'status', 'booking_date'])
        .where('id', '=', about.booking)
        .executeTakeFirst();
      if (!access.bookings.verify(about.booking, key)) throw keyRefused();
      return { booking } as const;
    }
    const visit = await db
      .selectFrom('visits')
      .select(['id', 'booking_id', 'state'])
      .where('id', '=', about.visit)
      .executeTakeFirst();
    if (!opensVisitTurn({ id: about.visit, booking_id: visit?.booking_id ?? null }, key, access)) {
      throw keyRefused();
    }
    return { visit } as const;
  }

  /** What the phone follows, checked against its key, and when following it ends. */
  async function followed(
    about: PushAbout,
    key: string,
  ): Promise<{ about: PushAboutKey; ends: Date }> {
    const found = await opened(about, key);
    if ('booking' in found) {
      const { booking } = found;
      if (!booking || !['confirmed', 'checked_in'].includes(booking.status)) {
        throw new AppError(409, 'PUSH_NOT_FOLLOWED', 'Only a confirmed booking sends news.');
      }
      // Its day ends by the next midnight in every zone: two days after its date at 00:00 UTC.
      const ends = bookingFollowedUntil(booking.booking_date);
      return { about: `booking:${booking.id}`, ends };
    }
    const { visit } = found;
    // A transferred visitor's page is still the first visit's: the turn is the live one.
    let live = visit;
    for (let hop = 0; live?.state === 'transferred' && hop < 5; hop++) {
      live = await db
        .selectFrom('visits')
        .select(['id', 'booking_id', 'state'])
        .where('transferred_from', '=', live.id)
        .executeTakeFirst();
    }
    if (!visit || !live || !['waiting', 'called'].includes(live.state)) {
      throw new AppError(409, 'PUSH_NOT_FOLLOWED', 'This visit is over: it sends no more news.');
    }
    return {
      about: `visit:${visit.id}`,
      ends: new Date(clock.now().getTime() + VISIT_FOLLOWED_MS),
    };
  }

  return async (app) => {
    app.addHook('onRequest', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/push/key', { schema: { response: { 200: pushKeyResponseSchema } } }, async () => ({
      publicKey: push.enabled ? (await push.vapidKeys()).publicKey : null,
    }));

    app.post(
      '/push/subscriptions',
      {
        config: { touchesCatalog: false },
        schema: {
          body: pushSubscribeRequestSchema,
          response: {
            201: pushSubscribeResponseSchema,
            ...errorResponses(400, 403, 409, 415, 429),
          },
        },
      },
      async (req, reply) => {
        if (!push.enabled)
          throw new AppError(409, 'PUSH_OFF', 'Notifications are off on this site.');
        await limits.enforce(reply, [{ limit: 'push-subscriptions-per-address', of: req.ip }]);
        const { subscription } = req.body;
        if (!push.allows(subscription.endpoint)) {
          throw new AppError(
            400,
            'PUSH_SERVICE_NOT_ALLOWED',
            "This browser's push service is not one this site sends to.",
          );
        }
        const { about, ends } = await followed(req.body.about, req.body.key);
        const saved = await db.transaction().execute((trx) =>
          saveSubscription(
            trx,
            {
              about,
              endpoint: subscription.endpoint,
              p256dh: subscription.keys.p256dh,
              auth: subscription.keys.auth,
              locale: req.body.locale,
              expiresAt: ends,
            },
            clock.now(),
          ),
        );
        if (!saved) {
          throw new AppError(
            409,
            'PUSH_SUBSCRIPTIONS_FULL',
            'Five phones already get these notifications.',
          );
        }
        return reply.code(201).send({ subscribed: true, expiresAt: ends.toISOString() });
      },
    );

    app.post(
      '/push/unsubscribe',
      {
        config: { touchesCatalog: false },
        schema: {
          body: pushUnsubscribeRequestSchema,
          response: { 204: z.null(), ...errorResponses(400, 403, 415, 429) },
        },
      },
      async (req, reply) => {
        await limits.enforce(reply, [{ limit: 'push-subscriptions-per-address', of: req.ip }]);
        const found = await opened(req.body.about, req.body.key);
        const { endpoint } = req.body;
        if ('booking' in found && found.booking) {
          // The booking's, and its visits' (a phone may have subscribed on the turn's page).
          const visits = await db
            .selectFrom('visits')
            .select('id')
            .where('booking_id', '=', found.booking.id)
            .execute();
          const about: PushAboutKey[] = [
            `booking:${found.booking.id}`,
            ...visits.map((v): PushAboutKey => `visit:${v.id}`),
          ];
          await forgetSubscription(db, about, endpoint);
        } else if ('visit' in found && found.visit) {
          await forgetSubscription(db, [`visit:${found.visit.id}`], endpoint);
        }
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/push/shown',
      {
        config: { touchesCatalog: false },
        schema: {
          body: pushShownRequestSchema,
          response: { 204: z.null(), ...errorResponses(400, 415) },
        },
      },
      async (req, reply) => {
        const outboxId = await push.outboxIdOf(req.body.receipt);
        if (!outboxId) throw new AppError(400, 'INVALID_PUSH_RECEIPT', 'This receipt is not ours.');
        const now = clock.now();
        const { spared } = await db
          .transaction()
          .execute((trx) => recordDelivered(trx, { channel: 'push', id: outboxId }, now));
        if (spared) {
          deps.metrics.messageSkipped('sms', 'delivered_elsewhere');
        }
        return reply.code(204).send(null);
      },
    );
  };
}
