import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ApiModule, type AppDeps, runBeside } from '../../app-deps.js';
import type { Config } from '../../config.js';
import type { BookingAccess } from '../../core/access/booking-access.js';
import type { VisitAccess } from '../../core/access/visit-access.js';
import type { OutboxChannel, OutboxRow } from '../../db/schema.js';
import { maxOf, windowOf } from '../../limits/declarations.js';
import { createSmsProvider } from '../../providers/sms/index.js';
import type { SmsProvider } from '../../providers/sms/provider.js';
import { SMTP_STEP_TIMEOUT_MS, smtpSender } from '../mail/mail.module.js';
import {
  type ChannelSender,
  type ChannelSetup,
  leaseFor,
  OutboxWorker,
} from '../outbox/outbox.module.js';
import { hurryFallback } from './free-first.js';
import { CAPPED_KINDS, isCustomerMessageKind } from './message-kinds.js';
import { bookingMessagePreparer } from './message-preparer.js';
import { pushRoutes } from './push.routes.js';
import { ReminderSweep } from './reminders.js';
import { BUDGET_SKIP, overSmsBudget } from './sms-budget.js';
import { smsDeliveryRoutes } from './sms-delivery.routes.js';
import { ticketLinkRoutes } from './ticket-link.routes.js';
import { WebPush } from './web-push.js';
import { whatsappSender, whatsappWebhookRoutes } from './whatsapp.routes.js';

export { queueBookingMessages } from './booking-messages.js';
export { withdrawWhatsApp } from './free-first.js';
export {
  type CustomerMessage,
  queueCustomerMessage,
  queueCustomerMessages,
} from './message-door.js';
export { CUSTOMER_MESSAGE_KINDS, QUIET_HOURS } from './message-kinds.js';
export { hasLiveSubscription, type PushAboutKey } from './push-subscriptions.js';
export { smsBudgetOf } from './sms-budget.js';

/** The longest site address every SMS is tested to fit in one part with (decision 141). */
const SMS_ORIGIN_MAX = 30;

/** The SMS channel of the outbox: a provider's refusal for good gives the message up at once. */
function smsSender(provider: SmsProvider): ChannelSender {
  return {
    provider: provider.name,
    async deliver(to, message) {
      const result = await provider.send({ to, text: message.text });
      if (result.ok) return { ok: true, providerMessageId: result.providerMessageId };
      return { ok: false, error: result.code, permanent: !result.retryable };
    },
    close: () => provider.close(),
  };
}

/** A push is worth little late: two tries a few seconds apart, then the SMS takes over. */
const PUSH_ATTEMPTS = 2;
const PUSH_RETRY_MS = 5_000;

function channelsOf(
  config: Config,
  sms: SmsProvider,
  push: WebPush,
): Partial<Record<OutboxChannel, ChannelSetup>> {
  const channels: Partial<Record<OutboxChannel, ChannelSetup>> = {
    sms: {
      sender: smsSender(sms),
      maxAttempts: config.sms.maxAttempts,
      retryBaseMs: config.sms.retryBaseMs,
    },
  };
  if (push.enabled) {
    channels.push = {
      sender: push.sender(),
      maxAttempts: PUSH_ATTEMPTS,
      retryBaseMs: PUSH_RETRY_MS,
    };
  }
  if (config.whatsapp) {
    // Like a push: worth a retry or two within its wait, then the SMS takes over.
    channels.whatsapp = {
      sender: whatsappSender(config.whatsapp),
      maxAttempts: PUSH_ATTEMPTS,
      retryBaseMs: PUSH_RETRY_MS,
    };
  }
  if (config.mail.smtpUrl && config.mail.from) {
    channels.email = {
      sender: smtpSender(config.mail.smtpUrl, config.mail.from),
      maxAttempts: config.mail.maxAttempts,
      retryBaseMs: config.mail.retryBaseMs,
    };
  }
  return channels;
}

export interface Messaging {
  sms: SmsProvider;
  push: WebPush;
  /** Null when OUTBOX_WORKER_ENABLED is off in this process. */
  worker: OutboxWorker | null;
  /** Null when REMINDERS_ENABLED is off in this process. */
  reminders: ReminderSweep | null;
}

/**
 * The outbox worker with its ways out (SMS always, through the configured provider; e-mail
 * only with SMTP, else mail waits in the outbox for operators) and the reminder sweep.
 */
function createMessaging(
  deps: AppDeps,
  access: BookingAccess,
  log: FastifyBaseLogger,
  sms: SmsProvider = createSmsProvider(deps.config.sms, { clock: deps.clock }),
  skipStoredMessage?: (row: OutboxRow, now: Date) => Promise<string | null>,
): Messaging {
  const { config, db, clock } = deps;
  const { outbox } = config;
  const push = new WebPush(db, clock, config.push);
  const worker = outbox.workerEnabled
    ? new OutboxWorker({
        db,
        clock,
        channels: channelsOf(config, sms, push),
        prepareBookingMessage: bookingMessagePreparer(db, {
          publicOrigin: config.publicOrigin,
          access,
        }),
        ...(skipStoredMessage ? { skipStoredMessage } : {}),
        recipientCap: {
          channel: 'sms',
          max: maxOf('messages-per-recipient', config),
          windowMs: windowOf('messages-per-recipient', config),
          kinds: CAPPED_KINDS,
        },
        // An organization's SMS past its monthly budget: not sent (decision 143).
        heldBack: async (row, now) =>
          row.channel === 'sms' &&
          row.organization_id !== null &&
          isCustomerMessageKind(row.kind) &&
          (await overSmsBudget(db, row.organization_id, config.sms.priceXaf, now))
            ? BUDGET_SKIP
            : null,
        // A push that failed for good sends its SMS now rather than after the push's wait.
        onGaveUp: async (row, now) => {
          if ((row.channel === 'push' || row.channel === 'whatsapp') && row.dedupe_key)
            await hurryFallback(db, row.dedupe_key, now);
        },
        config: {
          intervalMs: outbox.workerIntervalMs,
          batchSize: outbox.batchSize,
          leaseMs: leaseFor(
            outbox.batchSize,
            Math.max(config.sms.timeoutMs, 3 * SMTP_STEP_TIMEOUT_MS),
          ),
        },
        log,
        metrics: deps.metrics,
      })
    : null;
  const reminders = outbox.remindersEnabled
    ? new ReminderSweep({ db, clock, intervalMs: outbox.reminderIntervalMs, log })
    : null;
  return { sms, push, worker, reminders };
}

/**
 * One outbox for every message: SMS through the configured provider (or `sms`, in tests),
 * e-mail through SMTP when configured (with none, mail stays in the outbox and operators read
 * it in the console); reminders queued by a sweep. Every process may run both. A stored
 * waitlist offer that lapsed is not sent (`skipStoredMessage`).
 */
export function messagesModule(
  app: FastifyInstance,
  deps: AppDeps,
  wiring: {
    access: BookingAccess;
    visits: VisitAccess;
    sms?: SmsProvider | undefined;
    skipStoredMessage: (row: OutboxRow, now: Date) => Promise<string | null>;
  },
): ApiModule & { linkRoutes: FastifyPluginAsyncZod } {
  const messaging = createMessaging(
    deps,
    wiring.access,
    app.log,
    wiring.sms,
    wiring.skipStoredMessage,
  );
  app.decorate('messaging', messaging);
  const { sms, worker, reminders } = messaging;
  if (deps.config.publicOrigin.length > SMS_ORIGIN_MAX) {
    // Every SMS is made to fit one part on an address of 30 characters (decision 141).
    app.log.warn(
      { length: deps.config.publicOrigin.length },
      'PUBLIC_ORIGIN is longer than 30 characters: some SMS may take two parts',
    );
  }
  if (deps.config.nodeEnv === 'production' && deps.config.push.contact.endsWith('.invalid')) {
    // Push services (Apple's first) may refuse a VAPID subject nobody answers at.
    app.log.warn('PUSH_CONTACT is not set: set a mailto: address or an https:// page');
  }
  if (deps.config.nodeEnv === 'production' && sms.name === 'simulator') {
    app.log.warn('SMS_PROVIDER=simulator: SMS are recorded in the outbox, never sent to phones');
  }
  runBeside(app, 'outbox', {
    start: () => worker?.start(),
    stop: async () => (worker ? worker.stop() : sms.close()),
    // A drain stops the sweeping and hands back what the worker claimed (decision 028).
    drain: async () => worker?.stopSweeping(),
  });
  // Registered after the outbox, so that at close (hooks run last first) the reminders stop
  // queueing before the worker stops sending.
  runBeside(app, 'reminders', reminders);
  return {
    routes: [
      pushRoutes(deps, messaging.push, { bookings: wiring.access, visits: wiring.visits }),
      smsDeliveryRoutes(deps),
      ...(deps.config.whatsapp ? [whatsappWebhookRoutes(deps, deps.config.whatsapp)] : []),
    ],
    linkRoutes: ticketLinkRoutes(deps, wiring.access),
  };
}
