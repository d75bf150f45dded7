import type { FastifyInstance } from 'fastify';
import { type ApiModule, type AppDeps, runBeside } from '../../app-deps.js';
import type { BookingAccess } from '../../core/access/booking-access.js';
import { VisitAccess } from '../../core/access/visit-access.js';
import type { Fanout } from '../../fanout.js';
import { limiter } from '../../limits/limiter.js';
import type { LiveSockets } from '../../limits/live-sockets.js';
import type { FeedbackRequests } from '../feedback/feedback.module.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import { callsRecordRoutes } from './calls-record.routes.js';
import { JoinCodes } from './join-code.js';
import { joinCodeRoutes } from './join-code.routes.js';
import { kioskRoutes } from './kiosk.routes.js';
import { queueRoutes } from './queue.routes.js';
import { QueueService } from './queue.service.js';
import { QueueClosingSweep } from './queue-closing.js';
import { QueueHub } from './queue-hub.js';
import { queueLiveRoutes } from './queue-live.routes.js';
import { SmsJoin } from './sms-join.js';
import { smsJoinRoutes } from './sms-join.routes.js';
import { TurnMessages } from './turn-messages.js';

export type { QueueService } from './queue.service.js';
export {
  type BookingQueueArrival,
  bookingQueueArrival,
  enterBookingVisit,
  moveBookingVisitArrival,
} from './queue-entry.js';
export { QUEUE_CHANNEL } from './queue-events.js';
export type { QueueHub } from './queue-hub.js';
export type { TurnMessages } from './turn-messages.js';
export { inTransaction } from './visits.repository.js';

export interface QueueModule extends ApiModule {
  /** Each visitor's turn by SMS, with their link (the desk's check-in sends it too). */
  turns: TurnMessages;
  /** Visit keys, for the modules that open a visit by its key (web push). */
  visits: VisitAccess;
  /** Decides the line's SMS still pending after a call (app.ts: first thing at close). */
  drainLines(): Promise<void>;
}

/**
 * The queue in the branch: one line of booked visitors and walk-ins, counters that call, the
 * board and each visitor's turn live on this process (one LISTEN, decision 022), and a sweep
 * that makes late booked visitors no-shows and closes open visits at closing time.
 */
export async function queueModule(
  app: FastifyInstance,
  deps: AppDeps,
  wiring: {
    fanout: Fanout;
    sockets: LiveSockets;
    bookings: BookingAccess;
    feedback: FeedbackRequests;
    /** Signs the day's record of calls (decision 139). */
    signer: TicketSigner;
  },
): Promise<QueueModule> {
  const { db, clock, config, database } = deps;
  const hub = new QueueHub({
    db,
    clock,
    log: app.log,
    ...(database.engine === 'pglite' ? { turnsPerSlice: Number.POSITIVE_INFINITY } : {}),
  });
  await hub.start(wiring.fanout);
  app.addHook('onClose', async () => hub.stop());
  app.decorate('queueHub', hub);
  // Its SMS carry the visitor's link (a visit key, or the booking's).
  const visits = await VisitAccess.load(db);
  app.decorate('visitAccess', visits);
  // The code the board shows in the hall, asked of joins where the organization says so (125).
  const joinCodes = await JoinCodes.load(db, clock);
  const turns = new TurnMessages({
    publicOrigin: config.publicOrigin,
    pushEnabled: config.push.enabled,
    whatsappEnabled: config.whatsapp !== null,
    visits,
    bookings: wiring.bookings,
  });
  const queue = new QueueService({
    db,
    clock,
    turns,
    feedback: wiring.feedback,
    selfJoins: {
      perMinute: config.limits.selfJoinsPerMinute,
      waiting: config.limits.selfJoinsWaiting,
    },
    log: app.log,
    oneSession: database.engine === 'pglite',
  });
  app.decorate('queue', queue);
  // Every process may run the sweep (each change is conditional on the state it leaves).
  runBeside(
    app,
    'queue-closing',
    config.queueSweep.enabled
      ? new QueueClosingSweep({ db, clock, intervalMs: config.queueSweep.intervalMs, log: app.log })
      : null,
  );
  const limits = limiter(db, clock, config);
  // Joining from a basic phone (decision 136).
  const sms = await SmsJoin.load({ db, clock, line: queue.line, turns });
  const smsNumber = config.sms.inboundNumber;
  return {
    turns,
    /** Visit keys, for the modules that open a visit by its key (web push). */
    visits,
    drainLines: () => queue.lines.drain(),
    routes: [
      queueRoutes(deps, queue, limits, joinCodes),
      callsRecordRoutes(deps, wiring.signer),
      kioskRoutes(deps, queue, limits, turns),
      joinCodeRoutes(db, joinCodes, { todayOf: (id) => sms.todayOf(id), number: smsNumber }),
      smsJoinRoutes(deps, sms, limits, {
        provider: config.sms.provider,
        number: smsNumber,
        publicOrigin: config.publicOrigin,
      }),
      queueLiveRoutes(deps, hub, wiring.sockets, { bookings: wiring.bookings, visits }),
    ],
  };
}
