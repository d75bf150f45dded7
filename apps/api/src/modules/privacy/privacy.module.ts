import type { FastifyInstance } from 'fastify';
import { type ApiModule, type AppDeps, runBeside } from '../../app-deps.js';
import type { WaitlistOffers } from '../waitlist/waitlist.module.js';
import { privacyRoutes } from './privacy.routes.js';
import { PersonalDataSweep } from './retention-sweep.js';

/**
 * Personal data (decision 031): a person's data exported or erased on request, and erased by a
 * sweep once past its retention, on every process with the queue's sweeps (a cheap "anything
 * due?" question first; each row erased once).
 */
export function privacyModule(
  app: FastifyInstance,
  deps: AppDeps,
  waitlist: WaitlistOffers,
): ApiModule {
  const { db, clock, config } = deps;
  runBeside(
    app,
    'personal-data',
    config.queueSweep.enabled
      ? new PersonalDataSweep({
          db,
          clock,
          retentionDays: config.personalData.retentionDays,
          intervalMs: config.queueSweep.intervalMs,
          log: app.log,
        })
      : null,
  );
  return { routes: [privacyRoutes(deps, waitlist)] };
}
