import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type ApiModule, type AppDeps, runBeside } from '../../app-deps.js';
import { BookingAccess } from '../../core/access/booking-access.js';
import { getOrCreateSecret } from '../../db/secrets.js';
import type { Fanout } from '../../fanout.js';
import { holdLimits } from '../../limits/hold-limits.js';
import { limiter } from '../../limits/limiter.js';
import type { LiveSockets } from '../../limits/live-sockets.js';
import { createPaymentProvider } from '../../providers/index.js';
import type { CallbackInput, PaymentProvider } from '../../providers/provider.js';
import { databaseSimulatorLedger } from '../../providers/simulator-ledger.js';
import { BookingsService } from '../bookings/bookings.module.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import { PaymentCallbacks } from './payment-callbacks.js';
import { PaymentEvents } from './payment-events.js';
import { PaymentInitiation } from './payment-initiation.js';
import { PaymentStateMachine } from './payment-state-machine.js';
import { paymentsRoutes } from './payments.routes.js';
import { Reconciler } from './reconciler.js';

export { PAYMENT_CHANNEL } from './payment-events.js';

export interface Payments {
  bookings: BookingsService;
  stateMachine: PaymentStateMachine;
  initiation: PaymentInitiation;
  callbacks: PaymentCallbacks;
  reconciler: Reconciler;
  provider: PaymentProvider;
  signer: TicketSigner;
  access: BookingAccess;
}

/**
 * Builds bookings and payments around one provider. The provider is made by `makeProvider`
 * with a callback sink, so a provider that settles by itself (the simulator) reaches the
 * same handler as an HTTP callback.
 */
async function createPayments(
  deps: AppDeps,
  signer: TicketSigner,
  log: FastifyBaseLogger,
  makeProvider: (
    deliverCallback: (input: CallbackInput) => Promise<void>,
  ) => Promise<PaymentProvider>,
): Promise<Payments> {
  const { db, clock, config } = deps;
  const settings = config.payments;
  let callbacks: PaymentCallbacks | null = null;
  const provider = await makeProvider(async (input) => {
    try {
      await callbacks?.handle(input);
    } catch (err) {
      log.error({ err }, 'provider settlement failed; the reconciler will retry');
    }
  });
  const bookings = new BookingsService(db, {
    holdMinutes: settings.holdMinutes,
    horizonDays: settings.horizonDays,
  });
  const stateMachine = new PaymentStateMachine({
    db,
    clock,
    bookings,
    provider: provider.name,
    log,
    metrics: deps.metrics,
  });
  callbacks = new PaymentCallbacks({
    db,
    clock,
    provider,
    stateMachine,
    limiter: limiter(db, clock, config),
    log,
  });
  const access = await BookingAccess.load(db);
  const initiation = new PaymentInitiation({
    access,
    db,
    clock,
    provider,
    bookings,
    stateMachine,
    holdLimits: holdLimits(config),
    log,
  });
  const reconciler = new Reconciler({
    db,
    clock,
    provider,
    bookings,
    stateMachine,
    config: {
      reconcileAfterMs: settings.reconcileAfterMs,
      maxPendingMinutes: settings.maxPendingMinutes,
      intervalMs: settings.reconcileIntervalMs,
      checksInFlight: settings.reconcileChecksInFlight,
    },
    log,
    metrics: deps.metrics,
  });
  return {
    bookings,
    stateMachine,
    initiation,
    callbacks,
    reconciler,
    provider,
    signer,
    access,
  };
}

export interface PaymentsModule extends ApiModule {
  payments: Payments;
}

/**
 * Payments (decisions on Campay and the simulator): bookings held and paid through the
 * configured provider (or `provider`, in tests), the customer's page told of each change (the
 * fan-out), and the reconciler asking the provider about payments nobody called back.
 */
export async function paymentsModule(
  app: FastifyInstance,
  deps: AppDeps,
  wiring: {
    signer: TicketSigner;
    fanout: Fanout;
    sockets: LiveSockets;
    provider?: PaymentProvider;
  },
): Promise<PaymentsModule> {
  const { db, clock, config } = deps;
  const payments = await createPayments(
    deps,
    wiring.signer,
    app.log,
    async (deliverCallback) =>
      wiring.provider ??
      createPaymentProvider(
        config.payments,
        { clock, deliverCallback },
        {
          signingKey: () => getOrCreateSecret(db, 'simulator_signing_key'),
          ledger: databaseSimulatorLedger(db),
        },
      ),
  );
  app.decorate('payments', payments);
  const events = new PaymentEvents();
  await events.start(wiring.fanout);
  app.addHook('onClose', async () => {
    await payments.provider.close();
    await events.stop();
  });
  const { reconciler } = payments;
  runBeside(app, 'reconciler', {
    start: () => config.payments.reconcilerEnabled && reconciler.start(),
    stop: () => reconciler.stop(),
  });
  return { payments, routes: [paymentsRoutes(deps, payments, events, wiring.sockets)] };
}
