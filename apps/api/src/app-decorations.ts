import type { VisitAccess } from './core/access/visit-access.js';
import type { Lifecycle } from './lifecycle.js';
import type { CatalogReads, ReadCache } from './modules/catalog/catalog.module.js';
import type { Messaging } from './modules/messages/messages.module.js';
import type { Metrics } from './modules/metrics/metrics.module.js';
import type { Payments } from './modules/payments/payments.module.js';
import type { QueueHub, QueueService } from './modules/queue/queue.module.js';
import type { WaitlistOffers } from './modules/waitlist/waitlist.module.js';

/** What buildApp (app.ts) hangs on the app, its requests and its routes' config. */
declare module 'fastify' {
  interface FastifyRequest {
    /** Set in preHandler: the route's handler ran, so the request may have written. */
    reachedHandler: boolean;
  }
  interface FastifyContextConfig {
    /** A GET route that writes: its answer waits for the read cache to hear of the commit. */
    writes?: boolean;
    /**
     * False: the route writes nothing a public catalogue answer reads (none of the tables
     * with migration 010's triggers), so its answer does not wait for the read cache.
     */
    touchesCatalog?: boolean;
    /**
     * Audit log (decision 032): true records every call of this route, reads included (a GET
     * that exports personal data) and calls without a session (sign-in, password reset).
     */
    audit?: boolean;
    /** Audit log: the action's stable name, instead of the one derived from method + route. */
    auditAction?: string;
    /** Audit log: body fields kept in the entry's target (ids and short codes, never a secret). */
    auditBody?: readonly string[];
  }
  interface FastifyInstance {
    /** Draining after SIGTERM, and its counters (decision 028; metrics read them). */
    lifecycle: Lifecycle;
    /** Prometheus series of this app (decision 029). */
    metrics: Metrics;
    /** Origins allowed to call the API from a browser and to open sockets. */
    allowedOrigins: string[];
    payments: Payments;
    messaging: Messaging;
    /** The queue's live layer (boards, visitors' turns) of this process. */
    queueHub: QueueHub;
    /** The public catalogue's answers in memory; `sync()` after writing outside a request. */
    readCache: ReadCache;
    /** The public catalogue's answers as sent (server-side rendering may embed them). */
    catalogReads: CatalogReads;
    /** The queue's server core. */
    queue: QueueService;
    /** Offers of freed seats to the waitlist: call settleDay after freeing one. */
    waitlist: WaitlistOffers;
    /** Visit keys: the turn routes verify them (a booked visit's turn takes its booking key). */
    visitAccess: VisitAccess;
  }
}
