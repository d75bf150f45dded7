import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.js';
import type { Lifecycle } from './lifecycle.js';
import { createMessaging } from './modules/messages/messages.module.js';
import type { Payments } from './modules/payments/payments.module.js';
import { PersonalDataSweep } from './modules/privacy/privacy.module.js';
import { QueueClosingSweep } from './modules/queue/queue.module.js';
import {
  WaitlistOffers,
  WaitlistService,
  WaitlistSweep,
} from './modules/waitlist/waitlist.module.js';
import type { SmsProvider } from './providers/sms/provider.js';

/**
 * The app's work beside its requests: the outbox and reminders, the waitlist's offers, the
 * queue's closing sweep and the retention sweep. Each starts when the app is ready, stops at
 * close, and is stopped first by a drain (decision 028).
 */
export function startBackgroundWork(
  app: FastifyInstance,
  deps: AppDeps,
  lifecycle: Lifecycle,
  payments: Payments,
  smsProvider: SmsProvider | undefined,
) {
  // One outbox for every message: SMS through the configured provider, e-mail through SMTP
  // when configured (with none, mail stays in the outbox and operators read it in the
  // console); reminders are queued by a sweep. Every process may run both.
  // The waitlist of full days (decision 023): offers of freed seats, made in the
  // transaction that frees one and by a sweep on every process (with the queue's sweep).
  const waitlistOffers = new WaitlistOffers({
    db: deps.db,
    clock: deps.clock,
    publicOrigin: deps.config.publicOrigin,
  });
  app.decorate('waitlist', waitlistOffers);
  const waitlistService = new WaitlistService({
    db: deps.db,
    clock: deps.clock,
    offers: waitlistOffers,
    horizonDays: deps.config.payments.horizonDays,
  });
  const waitlistSweep = deps.config.queueSweep.enabled
    ? new WaitlistSweep(waitlistOffers, deps.config.queueSweep.intervalMs, app.log)
    : null;
  app.addHook('onReady', async () => waitlistSweep?.start());
  app.addHook('onClose', async () => {
    await waitlistSweep?.stop();
  });
  const messaging = createMessaging(deps, payments.access, app.log, smsProvider, (row, now) =>
    waitlistOffers.skipReason(row, now),
  );
  app.decorate('messaging', messaging);
  if (deps.config.nodeEnv === 'production' && messaging.sms.name === 'simulator') {
    app.log.warn('SMS_PROVIDER=simulator: SMS are recorded in the outbox, never sent to phones');
  }
  app.addHook('onReady', async () => {
    messaging.worker?.start();
    messaging.reminders?.start();
  });
  app.addHook('onClose', async () => {
    await messaging.reminders?.stop();
    if (messaging.worker) await messaging.worker.stop();
    else await messaging.sms.close();
  });

  // Booked visitors past the late grace become no-shows; open visits close at closing time.
  // Every process may run it (each change is conditional on the state it leaves).
  const queueClosing = deps.config.queueSweep.enabled
    ? new QueueClosingSweep({
        db: deps.db,
        clock: deps.clock,
        intervalMs: deps.config.queueSweep.intervalMs,
        log: app.log,
      })
    : null;
  app.addHook('onReady', async () => queueClosing?.start());
  app.addHook('onClose', async () => {
    await queueClosing?.stop();
  });

  // Personal data past its retention (decision 031): erased by a sweep on every process, with
  // the queue's sweeps (a cheap "anything due?" question first; each row erased once).
  const personalDataSweep = deps.config.queueSweep.enabled
    ? new PersonalDataSweep({
        db: deps.db,
        clock: deps.clock,
        retentionDays: deps.config.personalData.retentionDays,
        intervalMs: deps.config.queueSweep.intervalMs,
        log: app.log,
      })
    : null;
  app.addHook('onReady', async () => personalDataSweep?.start());
  app.addHook('onClose', async () => {
    await personalDataSweep?.stop();
  });

  // What a drain stops at once, each handing back what it claimed and did not finish (028).
  lifecycle.addBackground('reconciler', () => payments.reconciler.stop());
  lifecycle.addBackground('outbox', async () => messaging.worker?.stopSweeping());
  lifecycle.addBackground('reminders', async () => messaging.reminders?.stop());
  lifecycle.addBackground('waitlist', async () => waitlistSweep?.stop());
  lifecycle.addBackground('queue-closing', async () => queueClosing?.stop());
  lifecycle.addBackground('personal-data', async () => personalDataSweep?.stop());

  return { waitlistOffers, waitlistService };
}
