import path from 'node:path';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, LogController, type RouteOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { startBackgroundWork } from './app-background.js';
import type {} from './app-decorations.js';
import type { AppDeps } from './app-deps.js';
import { boundBodyDepth } from './body-depth.js';
import type { Config } from './config.js';
import { createAuthGuard } from './core/access/auth-guard.js';
import { VisitAccess } from './core/access/visit-access.js';
import { type Clock, systemClock } from './core/clock.js';
import type { Database } from './db/database.js';
import { getOrCreateSecret } from './db/secrets.js';
import { frameworkErrors, registerErrorHandler } from './errors.js';
import { Lifecycle } from './lifecycle.js';
import { useCounterStore } from './limits/counter-store.js';
import { limiter } from './limits/limiter.js';
import { LiveSockets } from './limits/live-sockets.js';
import {
  databaseRateLimitStore,
  memoryRateLimitStore,
  sharedRateLimitStore,
} from './limits/route-store.js';
import { auditRoutes, registerAuditLog } from './modules/audit/audit.module.js';
import { authRoutes } from './modules/auth/auth.module.js';
import { SelfService, selfServiceRoutes } from './modules/bookings/bookings.module.js';
import { catalogReads, catalogRoutes, ReadCache } from './modules/catalog/catalog.module.js';
import { checkinRoutes } from './modules/checkin/checkin.module.js';
import { consoleRoutes } from './modules/console/console.module.js';
import { contactRoutes } from './modules/contact/contact.module.js';
import {
  FeedbackLinks,
  FeedbackRequests,
  FeedbackService,
  feedbackRoutes,
} from './modules/feedback/feedback.module.js';
import { healthRoutes } from './modules/health/health.module.js';
import { insightRoutes } from './modules/insight/insight.module.js';
import {
  Metrics,
  registerMetricsListener,
  registerMetricsRoute,
  ScrapeSnapshot,
} from './modules/metrics/metrics.module.js';
import { accountRoutes, staffRoutes } from './modules/onboarding/onboarding.module.js';
import {
  branchesRoutes,
  organizationAdminRoutes,
} from './modules/organizations/organizations.module.js';
import {
  createPayments,
  PaymentEvents,
  paymentsRoutes,
} from './modules/payments/payments.module.js';
import { privacyRoutes } from './modules/privacy/privacy.module.js';
import {
  JoinCodes,
  joinCodeRoutes,
  QueueHub,
  QueueService,
  queueLiveRoutes,
  queueRoutes,
  TurnMessages,
} from './modules/queue/queue.module.js';
import { TicketSigner, ticketsRoutes } from './modules/tickets/tickets.module.js';
import {
  localUploadStorage,
  type UploadStorage,
  uploadsRoutes,
} from './modules/uploads/uploads.module.js';
import { waitlistLinkRoutes, waitlistRoutes } from './modules/waitlist/waitlist.module.js';
import { createPaymentProvider } from './providers/index.js';
import type { PaymentProvider } from './providers/provider.js';
import { databaseSimulatorLedger } from './providers/simulator-ledger.js';
import type { SmsProvider } from './providers/sms/provider.js';
import { registerReadYourWrites } from './read-your-writes.js';
import { openBeyondOneDatabase } from './redis/beyond-one-database.js';
import { acceptRequestId } from './request-context.js';
import { registerRequestLog, serializeRequest } from './request-log.js';
import { registerSecurityHeaders } from './security-headers.js';
import { builtIndexScriptHashes, builtIndexStyleHashes } from './web-csp.js';
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

function websocketOrigins(origins: string[]): string[] {
  return origins.map((o) => o.replace(/^http/, 'ws'));
}

/**
 * req.ip becomes the rightmost untrusted hop. Fastify 5 refuses to trust a bare number
 * (fails closed), so a hop count is given as the function proxy-addr would make of it:
 * the socket peer and the next `hops - 1` entries from the right are our proxies.
 */
function trustProxyOption(
  trust: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** Builds the whole app without listening; tests call `app.inject()` on it. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const allowedOrigins = [config.publicOrigin, ...config.corsOrigins];
  const guard = createAuthGuard(database.db, config.auth, clock, allowedOrigins);
  // One registry per app (tests build many in one process); process metrics only when served.
  const metrics = new Metrics({
    defaultMetrics: config.metrics.port !== null || config.metrics.token !== null,
  });
  const deps: AppDeps = { config, database, db: database.db, clock, guard, metrics };

  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            serializers: { req: serializeRequest },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    trustProxy: trustProxyOption(config.trustProxy),
    // One line per request, at its answer (request-log.ts); its id may come from the proxy.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: (req) => acceptRequestId(req.headers['x-request-id']),
    bodyLimit: 64 * 1024,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Graceful shutdown (decision 028): follows connections and requests from the first one.
  const lifecycle = new Lifecycle();
  lifecycle.attach(app);
  app.decorate('lifecycle', lifecycle);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerRequestLog(app, metrics);
  // Before any plugin is registered, so every route's JSON bodies are bounded.
  boundBodyDepth(app);

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...builtIndexScriptHashes(config.webDistDir)],
        // The stylesheet is inlined into index.html: allowed by its hash, not 'unsafe-inline'.
        styleSrc: ["'self'", ...builtIndexStyleHashes(config.webDistDir)],
        // Uploaded logos are served by us under PUBLIC_ORIGIN (also when reached by another name).
        imgSrc: ["'self'", 'data:', 'blob:', config.publicOrigin],
        connectSrc: ["'self'", ...websocketOrigins([config.publicOrigin])],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // Same-origin pages need no CORS; other origins only when configured (without any, the
  // plugin would only add a hook to every request that answers nothing).
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
    });
  }
  await app.register(cookie);
  app.decorateRequest('auth', null);
  // Beyond one database (decision 033): with REDIS_URL, rate counters and fan-out go through
  // Redis; nothing else knows. The embedded database serves one process and needs none.
  const beyond = await openBeyondOneDatabase({ config, database, log: app.log, app });
  if (beyond) useCounterStore(config, beyond.counters);
  const fanout = beyond?.fanout ?? database;
  // Counted in the database (or Redis) so that a limit holds in sum over every process; in
  // memory on the embedded database, which only one process can open (decision 014).
  await app.register(rateLimit, {
    global: false,
    store:
      database.engine === 'pglite'
        ? memoryRateLimitStore(deps.clock, database.db)
        : beyond
          ? sharedRateLimitStore(beyond.counters, deps.clock)
          : databaseRateLimitStore(deps.db, deps.clock),
  });

  app.decorate('allowedOrigins', allowedOrigins);
  // The audit log (decision 032): staff's, admins' and operators' acts, written after the answer.
  registerAuditLog(app, deps);

  const signer = await TicketSigner.load(deps.db, config.payments.ticketSigningKey);
  const payments = await createPayments(
    deps,
    signer,
    app.log,
    async (deliverCallback) =>
      options.provider ??
      createPaymentProvider(
        config.payments,
        { clock: deps.clock, deliverCallback },
        {
          signingKey: () => getOrCreateSecret(deps.db, 'simulator_signing_key'),
          ledger: databaseSimulatorLedger(deps.db),
        },
      ),
  );
  const liveSockets = new LiveSockets(config, () => app.allowedOrigins);
  liveSockets.observer = metrics;
  const events = new PaymentEvents();
  await events.start(fanout);
  app.decorate('payments', payments);

  const readCache = new ReadCache({
    clock,
    ...config.readCache,
    maxAgeMs: 10 * 60_000,
    onWarning: (message) => app.log.warn(message),
    onRead: (hit) => metrics.cacheRead(hit),
  });
  await readCache.start(database, fanout);
  const reads = catalogReads(deps, readCache);
  app.decorate('readCache', readCache);
  app.decorate('catalogReads', reads);
  registerReadYourWrites(app, readCache);

  if (config.payments.reconcilerEnabled) {
    app.addHook('onReady', async () => payments.reconciler.start());
  }
  // The queue's boards and turns on this process, fed by one LISTEN (decision 022).
  const queueHub = new QueueHub({
    db: deps.db,
    clock,
    log: app.log,
    ...(deps.database.engine === 'pglite' ? { turnsPerSlice: Number.POSITIVE_INFINITY } : {}),
  });
  await queueHub.start(fanout);
  await beyond?.start();
  app.decorate('queueHub', queueHub);
  app.addHook('onClose', async () => {
    await queueHub.stop();
    await payments.reconciler.stop();
    await payments.provider.close();
    await events.stop();
    await readCache.stop();
  });

  const { waitlistOffers, waitlistService } = startBackgroundWork(
    app,
    deps,
    lifecycle,
    payments,
    options.smsProvider,
  );

  await app.register(websocket, { options: { maxPayload: 4096 } });

  // The queue: its SMS carry the visitor's link (a visit key, or the booking's).
  const visitAccess = await VisitAccess.load(deps.db);
  // The code the board shows in the hall, asked of joins where the organization says so (125).
  const joinCodes = await JoinCodes.load(deps.db, deps.clock);
  const turns = new TurnMessages({
    publicOrigin: config.publicOrigin,
    visits: visitAccess,
    bookings: payments.access,
  });
  // A word after the visit: one SMS once a visit is done, its link signed.
  const feedbackLinks = await FeedbackLinks.load(deps.db);
  const queue = new QueueService({
    db: deps.db,
    clock: deps.clock,
    turns,
    feedback: new FeedbackRequests({ publicOrigin: config.publicOrigin, links: feedbackLinks }),
    selfJoins: {
      perMinute: config.limits.selfJoinsPerMinute,
      waiting: config.limits.selfJoinsWaiting,
    },
    log: app.log,
    oneSession: deps.database.engine === 'pglite',
  });
  app.decorate('queue', queue);
  // The line's SMS decided after a call end before the database closes.
  app.addHook('onClose', () => queue.lines.drain());
  app.decorate('visitAccess', visitAccess);

  await app.register(
    async (api) => {
      await api.register(healthRoutes(deps, lifecycle));
      await api.register(authRoutes(deps));
      await api.register(catalogRoutes(reads));
      await api.register(contactRoutes(deps));
      await api.register(paymentsRoutes(deps, payments, events, liveSockets));
      await api.register(ticketsRoutes(deps, signer));
      await api.register(accountRoutes(deps));
      await api.register(consoleRoutes(deps));
      await api.register(privacyRoutes(deps, waitlistOffers));
      await api.register(staffRoutes(deps));
      await api.register(organizationAdminRoutes(deps));
      await api.register(branchesRoutes(deps));
      await api.register(insightRoutes(deps));
      await api.register(auditRoutes(deps));
      await api.register(
        uploadsRoutes(
          deps,
          options.uploadStorage ?? localUploadStorage(path.join(config.dataDir, 'uploads')),
        ),
      );
      await api.register(checkinRoutes(deps, signer, turns));
      await api.register(queueRoutes(deps, queue, limiter(deps.db, deps.clock, config), joinCodes));
      await api.register(joinCodeRoutes(deps.db, joinCodes));
      await api.register(
        feedbackRoutes(
          new FeedbackService({ db: deps.db, clock: deps.clock, links: feedbackLinks }),
          limiter(deps.db, deps.clock, config),
        ),
      );
      await api.register(
        queueLiveRoutes(deps, queueHub, liveSockets, {
          bookings: payments.access,
          visits: visitAccess,
        }),
      );
      await api.register(
        selfServiceRoutes(
          deps,
          new SelfService({
            db: deps.db,
            clock: deps.clock,
            bookings: payments.bookings,
            access: payments.access,
            signer,
            limits: limiter(deps.db, deps.clock, config),
            waitlist: waitlistOffers,
          }),
        ),
      );
      await api.register(waitlistRoutes(waitlistService, limiter(deps.db, deps.clock, config)));
    },
    { prefix: '/api/v1' },
  );

  await app.register(waitlistLinkRoutes(waitlistService));
  // Metrics (decision 029): read at scrape time; served on METRICS_PORT and/or with a token.
  metrics.attach({
    snapshot: new ScrapeSnapshot({
      db: deps.db,
      clock,
      reconcileAfterMs: config.payments.reconcileAfterMs,
      onError: (err) => app.log.warn({ err }, 'metrics: the database did not answer the scrape'),
    }),
    ...(database.poolStats ? { poolStats: database.poolStats } : {}),
    draining: () => lifecycle.draining,
  });
  const unobservePool = database.observePool?.(metrics);
  app.addHook('onClose', async () => unobservePool?.());
  app.decorate('metrics', metrics);
  app.decorate('metricsAddress', null);
  registerMetricsRoute(app, config.metrics, metrics);
  registerMetricsListener(app, config.metrics, metrics);
  await registerWebStatic(app, config, deps.clock);
  return app;
}
