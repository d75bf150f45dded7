import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ApiModule, type AppDeps, runBeside } from '../../app-deps.js';
import { limiter } from '../../limits/limiter.js';
import { waitlistLinkRoutes, waitlistRoutes } from './waitlist.routes.js';
import { WaitlistService } from './waitlist.service.js';
import { WaitlistOffers, WaitlistSweep } from './waitlist-offers.js';

export { lockDay } from './waitlist.repository.js';
export type { WaitlistOffers } from './waitlist-offers.js';

export interface WaitlistModule extends ApiModule {
  /** Offers of freed seats: made in the transaction that frees one, and by a sweep. */
  offers: WaitlistOffers;
  /** The offer links in SMS, outside /api/v1. */
  linkRoutes: FastifyPluginAsyncZod;
}

/**
 * The waitlist of full days (decision 023): offers of freed seats, made in the transaction
 * that frees one and by a sweep on every process (with the queue's sweep).
 */
export function waitlistModule(app: FastifyInstance, deps: AppDeps): WaitlistModule {
  const { db, clock, config } = deps;
  const offers = new WaitlistOffers({ db, clock, publicOrigin: config.publicOrigin });
  app.decorate('waitlist', offers);
  const service = new WaitlistService({
    db,
    clock,
    offers,
    horizonDays: config.payments.horizonDays,
  });
  runBeside(
    app,
    'waitlist',
    config.queueSweep.enabled
      ? new WaitlistSweep(offers, config.queueSweep.intervalMs, app.log)
      : null,
  );
  return {
    offers,
    routes: [waitlistRoutes(service, limiter(db, clock, config))],
    linkRoutes: waitlistLinkRoutes(service),
  };
}
