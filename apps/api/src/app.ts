import websocket from '@fastify/websocket';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type {} from './app-decorations.js';
import type { AppDeps } from './app-deps.js';
import { createHttp, registerRateLimits } from './app-http.js';
import type { Config } from './config.js';
import { createAuthGuard } from './core/access/auth-guard.js';
import { type Clock, systemClock } from './core/clock.js';
import type { Database } from './db/database.js';
import { useCounterStore } from './limits/counter-store.js';
import { LiveSockets } from './limits/live-sockets.js';
import { auditModule } from './modules/audit/audit.module.js';
import { authModule } from './modules/auth/auth.module.js';
import { bookingsModule } from './modules/bookings/bookings.module.js';
import { catalogModule } from './modules/catalog/catalog.module.js';
import { checkinModule } from './modules/checkin/checkin.module.js';
import { consoleModule } from './modules/console/console.module.js';
import { contactModule } from './modules/contact/contact.module.js';
import { feedbackModule } from './modules/feedback/feedback.module.js';
import { healthModule } from './modules/health/health.module.js';
import { insightModule } from './modules/insight/insight.module.js';
import { messagesModule } from './modules/messages/messages.module.js';
import { Metrics, metricsModule } from './modules/metrics/metrics.module.js';
import { onboardingModule } from './modules/onboarding/onboarding.module.js';
import { organizationsModule } from './modules/organizations/organizations.module.js';
import { paymentsModule } from './modules/payments/payments.module.js';
import { privacyModule } from './modules/privacy/privacy.module.js';
import { queueModule } from './modules/queue/queue.module.js';
import { ticketsModule } from './modules/tickets/tickets.module.js';
import { type UploadStorage, uploadsModule } from './modules/uploads/uploads.module.js';
import { waitlistModule } from './modules/waitlist/waitlist.module.js';
import type { PaymentProvider } from './providers/provider.js';
import type { SmsProvider } from './providers/sms/provider.js';
import { openBeyondOneDatabase } from './redis/beyond-one-database.js';
import { registerWebStatic } from './web-static.js';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Replaces the configured payment provider (tests). */
  provider?: PaymentProvider;
  /** Replaces the configured SMS provider (tests). */
  smsProvider?: SmsProvider;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Sees every route as it is declared (tests derive requests from the schemas). */
  onRoute?: (route: RouteOptions) => void;
  /** Where uploaded logos are kept; default DATA_DIR/uploads on local disk. */
  uploadStorage?: UploadStorage;
}

/**
 * Builds the whole app without listening; tests call `app.inject()` on it. The HTTP layer
 * first, then each module from its face (modules/<name>/<name>.module.ts), each handed what it
 * needs of the others; their routes under /api/v1, then the web app.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const allowedOrigins = [config.publicOrigin, ...config.corsOrigins];
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    clock,
    guard: createAuthGuard(database.db, config.auth, clock, allowedOrigins),
    // One registry per app (tests build many in one process); process metrics only when served.
    metrics: new Metrics({
      defaultMetrics: config.metrics.port !== null || config.metrics.token !== null,
    }),
  };
  const app = await createHttp(deps, options);
  app.decorate('allowedOrigins', allowedOrigins);
  // Beyond one database (decision 033): with REDIS_URL, rate counters and fan-out go through
  // Redis; nothing else knows. The embedded database serves one process and needs none.
  const beyond = await openBeyondOneDatabase({ config, database, log: app.log, app });
  if (beyond) useCounterStore(config, beyond.counters);
  const fanout = beyond?.fanout ?? database;
  await registerRateLimits(app, deps, beyond?.counters);
  const sockets = new LiveSockets(config, () => app.allowedOrigins);
  sockets.observer = deps.metrics;

  // Fastify closes the app's parts last built first: build what others use first.
  const audit = auditModule(app, deps);
  const catalog = await catalogModule(app, deps, fanout);
  const tickets = await ticketsModule(deps);
  const { signer } = tickets;
  const payments = await paymentsModule(app, deps, {
    signer,
    fanout,
    sockets,
    ...(options.provider ? { provider: options.provider } : {}),
  });
  const { access } = payments.payments;
  const feedback = await feedbackModule(deps);
  const queue = await queueModule(app, deps, {
    fanout,
    sockets,
    bookings: access,
    feedback: feedback.requests,
    signer,
  });
  await beyond?.start();
  const waitlist = waitlistModule(app, deps);
  const messages = messagesModule(app, deps, {
    access,
    visits: queue.visits,
    sms: options.smsProvider,
    skipStoredMessage: (row, now) => waitlist.offers.skipReason(row, now),
  });
  const modules = [
    healthModule(deps, app.lifecycle),
    authModule(deps),
    catalog,
    contactModule(deps),
    payments,
    tickets,
    onboardingModule(deps),
    consoleModule(deps),
    privacyModule(app, deps, waitlist.offers),
    organizationsModule(deps),
    insightModule(deps),
    audit,
    uploadsModule(deps, options.uploadStorage),
    checkinModule(deps, signer, queue.turns),
    queue,
    feedback,
    bookingsModule(deps, {
      bookings: payments.payments.bookings,
      access,
      signer,
      waitlist: waitlist.offers,
    }),
    waitlist,
    messages,
  ];

  // First at close: the line's SMS decided after a call, before the sweeps and the outbox stop.
  app.addHook('onClose', () => queue.drainLines());

  await app.register(websocket, { options: { maxPayload: 4096 } });
  await app.register(
    async (api) => {
      for (const module of modules) for (const routes of module.routes) await api.register(routes);
    },
    { prefix: '/api/v1' },
  );
  await app.register(waitlist.linkRoutes);
  await app.register(messages.linkRoutes);
  metricsModule(app, deps, app.lifecycle);
  await registerWebStatic(app, config, clock);
  return app;
}
