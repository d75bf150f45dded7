import path from 'node:path';
import { z } from 'zod';
import { envShape } from './config-env.js';

const apiRoot = path.resolve(import.meta.dirname, '..');

/**
 * Every setting once: its name, default and check, and where it lands in the server's
 * configuration (the transform at the end). `Config` is this schema's output.
 */
const configSchema = z
  .object(envShape)
  .superRefine((e, ctx) => {
    if (e.METRICS_PORT && e.METRICS_PORT === e.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT (the main port serves /metrics only with METRICS_TOKEN)',
      });
    }
    if (e.SHUTDOWN_IDLE_GRACE_MS > e.SHUTDOWN_TIMEOUT_MS - 2000) {
      ctx.addIssue({
        code: 'custom',
        path: ['SHUTDOWN_IDLE_GRACE_MS'],
        message: 'must leave at least 2 000 ms of SHUTDOWN_TIMEOUT_MS for the rest of the drain',
      });
    }
    // A server that lies about the time must never be one that takes real bookings.
    if (e.QLESS_FAKE_NOW && e.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['QLESS_FAKE_NOW'],
        message: 'is for end-to-end tests only: it is refused unless NODE_ENV=test',
      });
    }
    // In production a missing provider must not quietly mean "every payment succeeds".
    if (e.NODE_ENV === 'production' && !e.PAYMENT_PROVIDER) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROVIDER'],
        message:
          'must be set explicitly when NODE_ENV=production (campay, or simulator for a demo)',
      });
    }
    if (e.SMTP_URL && !e.MAIL_FROM) {
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL_FROM'],
        message: 'required when SMTP_URL is set (e.g. "Qless <no-reply@example.cm>")',
      });
    }
    if (e.SMS_PROVIDER === 'africastalking') {
      for (const key of ['AFRICASTALKING_USERNAME', 'AFRICASTALKING_API_KEY'] as const) {
        if (!e[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'required when SMS_PROVIDER=africastalking',
          });
      }
    }
    if (e.PAYMENT_PROVIDER !== 'campay') return;
    for (const key of ['CAMPAY_USERNAME', 'CAMPAY_PASSWORD', 'CAMPAY_WEBHOOK_KEY'] as const) {
      if (!e[key])
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'required when PAYMENT_PROVIDER=campay',
        });
    }
  })
  .transform((e) => {
    const databaseUrl = e.DATABASE_URL ?? null;
    return {
      nodeEnv: e.NODE_ENV,
      host: e.HOST,
      port: e.PORT,
      logLevel: e.LOG_LEVEL,
      /** Null: embedded PGlite in `dataDir`. */
      databaseUrl,
      dataDir: path.resolve(e.DATA_DIR),
      /** `npm run backup`'s folder (decision 030); backups hold personal data: 0700. */
      backupDir: path.resolve(e.BACKUP_DIR),
      seedDemo: e.SEED_DEMO ?? databaseUrl === null,
      /** Origins whose pages may call the API and open sockets: the public origin plus CORS_ORIGINS. */
      publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
      corsOrigins: e.CORS_ORIGINS,
      webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(apiRoot, '../web/dist')),
      mediaDir: path.join(apiRoot, 'assets/media'),
      defaultTimeZone: e.DEFAULT_TIME_ZONE,
      /** false: no proxy; a number: that many proxies in front; a list: the proxies' addresses. */
      trustProxy: e.TRUST_PROXY ?? false,
      payments: {
        provider: e.PAYMENT_PROVIDER ?? 'simulator',
        simulatorDelayMs: e.SIMULATOR_DELAY_MS,
        campay:
          e.CAMPAY_USERNAME && e.CAMPAY_PASSWORD && e.CAMPAY_WEBHOOK_KEY
            ? {
                baseUrl: e.CAMPAY_BASE_URL,
                username: e.CAMPAY_USERNAME,
                password: e.CAMPAY_PASSWORD,
                webhookKey: e.CAMPAY_WEBHOOK_KEY,
                timeoutMs: e.CAMPAY_TIMEOUT_MS,
              }
            : null,
        holdMinutes: e.HOLD_MINUTES,
        horizonDays: e.BOOKING_HORIZON_DAYS,
        maxPendingMinutes: e.PAYMENT_MAX_PENDING_MINUTES,
        reconcilerEnabled: e.RECONCILER_ENABLED,
        reconcileIntervalMs: e.RECONCILE_INTERVAL_MS,
        reconcileAfterMs: e.RECONCILE_AFTER_MS,
        /** Provider status checks one process's reconciler runs at once. */
        reconcileChecksInFlight: e.RECONCILE_CHECKS_IN_FLIGHT,
        /** Null: generated once and kept in the database (app_secrets). */
        ticketSigningKey: e.TICKET_SIGNING_KEY ?? null,
        rateLimit: {
          perIp: e.RATE_LIMIT_INITIATE_PER_IP,
          perPhone: e.RATE_LIMIT_INITIATE_PER_PHONE,
          windowMinutes: e.RATE_LIMIT_WINDOW_MINUTES,
          /** Payment prompts sent to one number per hour, whoever starts them. */
          promptsPerPhone: e.PAYMENT_PROMPTS_PER_PHONE,
          /** Live holds per client address, in all and on one service. */
          holdsPerIp: e.HOLDS_PER_IP,
          holdsPerIpPerService: e.HOLDS_PER_IP_PER_SERVICE,
        },
      },
      /** PostgreSQL only (PGlite runs in this process). */
      databaseTimeouts: {
        connectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
        statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
        idleInTransactionMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        /** A wait during which the database answers nothing at all is given up (503). */
        stallMs: e.DATABASE_STALL_TIMEOUT_MS,
      },
      /** Per-address limits are backstops: many honest customers share one carrier address. */
      limits: {
        /** Contact requests per client address per 10 minutes. */
        contactPerIp: e.RATE_LIMIT_CONTACT_PER_IP,
        /** Ticket look-ups (and, apart, verifications) per client address per minute. */
        ticketPerIp: e.RATE_LIMIT_TICKET_PER_IP,
        /** Ticket look-ups (and, apart, verifications) from everyone together per minute. */
        ticketGlobal: e.RATE_LIMIT_TICKET_GLOBAL,
        /** Open payment status sockets per client address, per process. */
        socketsPerIp: e.STATUS_SOCKETS_PER_IP,
        /** Image uploads per organization per day. */
        uploadsPerOrgDay: e.UPLOADS_PER_ORG_DAY,
        /**
         * The join page's ceilings (decision 125): visits joined from the public page per
         * organization per minute, and waiting at once on one service.
         */
        selfJoinsPerMinute: e.QUEUE_SELF_JOINS_PER_MINUTE,
        selfJoinsWaiting: e.QUEUE_SELF_JOINS_WAITING,
        /**
         * Wrong answers to POST /tickets/{code}/access (ticket code + phone digits) counted
         * before each is checked: per code from one address per hour; per code from every
         * address per hour and per day (ceilings a first try from an address passes); per
         * client address per hour.
         */
        ticketAccess: {
          perCodeHour: e.TICKET_ACCESS_TRIES_PER_CODE,
          perCodeHourCeiling: e.TICKET_ACCESS_TRIES_PER_CODE_CEILING,
          perCodeDay: e.TICKET_ACCESS_TRIES_PER_CODE_DAY,
          perIpHour: e.TICKET_ACCESS_TRIES_PER_IP,
        },
      },
      auth: {
        /** A session unused this long ends; each use moves the end forward. */
        sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
        /** No session lives longer than this from sign-in, however used. */
        sessionAbsoluteHours: e.SESSION_ABSOLUTE_HOURS,
        /**
         * Failed sign-ins allowed in one window: per account from one client address, per
         * account from every address (a ceiling a first try from an address passes), and per
         * client address whatever the accounts.
         */
        loginFailuresPerAccount: e.LOGIN_FAILURES_PER_ACCOUNT,
        loginFailuresPerAccountCeiling: e.LOGIN_FAILURES_PER_ACCOUNT_CEILING,
        loginFailuresPerIp: e.LOGIN_FAILURES_PER_IP,
        loginWindowMinutes: e.LOGIN_WINDOW_MINUTES,
      },
      mail: {
        /** Null: no SMTP server; mail waits in the outbox, where operators read it. */
        smtpUrl: e.SMTP_URL ?? null,
        from: e.MAIL_FROM ?? null,
        /** Delivery attempts of one mail before it is given up. */
        maxAttempts: e.MAIL_MAX_ATTEMPTS,
        /** Wait after the first failed attempt; doubled after each further one (capped at 1 h). */
        retryBaseMs: e.MAIL_RETRY_BASE_MS,
      },
      sms: {
        /** simulator: recorded in the outbox as sent, nothing leaves the machine. */
        provider: e.SMS_PROVIDER,
        africastalking:
          e.AFRICASTALKING_USERNAME && e.AFRICASTALKING_API_KEY
            ? {
                baseUrl: e.AFRICASTALKING_BASE_URL,
                username: e.AFRICASTALKING_USERNAME,
                apiKey: e.AFRICASTALKING_API_KEY,
                senderId: e.AFRICASTALKING_SENDER_ID ?? null,
              }
            : null,
        /**
         * The number visitors text to join by SMS (shown on the board with the branch's word);
         * the simulator's is 8080 unless set. Null: joining by SMS is not offered.
         */
        inboundNumber: e.SMS_INBOUND_NUMBER ?? (e.SMS_PROVIDER === 'simulator' ? '8080' : null),
        /** Upper bound of one request to the gateway. */
        timeoutMs: e.SMS_TIMEOUT_MS,
        maxAttempts: e.SMS_MAX_ATTEMPTS,
        retryBaseMs: e.SMS_RETRY_BASE_MS,
        /** What one SMS is reckoned to cost, in FCFA (Insight, the monthly budget). */
        priceXaf: e.MESSAGE_PRICE_SMS_XAF,
        /** Customer SMS one number may be sent in 24 h (the `messages-per-recipient` limit). */
        perRecipientPerDay: e.SMS_PER_RECIPIENT_PER_DAY,
      },
      /** WhatsApp (decision 144): null unless a token and a phone number id are set. */
      whatsapp:
        e.WHATSAPP_ACCESS_TOKEN && e.WHATSAPP_PHONE_NUMBER_ID
          ? {
              baseUrl: e.WHATSAPP_API_BASE_URL,
              accessToken: e.WHATSAPP_ACCESS_TOKEN,
              phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
              /** Checks the webhook's X-Hub-Signature-256; without it no status is read. */
              appSecret: e.WHATSAPP_APP_SECRET ?? null,
              verifyToken: e.WHATSAPP_VERIFY_TOKEN ?? null,
              templatePrefix: e.WHATSAPP_TEMPLATE_PREFIX,
              timeoutMs: e.WHATSAPP_TIMEOUT_MS,
              priceXaf: e.MESSAGE_PRICE_WHATSAPP_XAF,
            }
          : null,
      /** Web push (decision 142): free, tried first for the kinds that take it. */
      push: {
        enabled: e.WEB_PUSH_ENABLED,
        /** Where subscriptions may point (the browsers' push services). */
        serviceOrigins: e.PUSH_SERVICE_ORIGINS,
        /** The VAPID subject: who a push service contacts about our pushes. */
        contact:
          e.PUSH_CONTACT ??
          (e.PUBLIC_ORIGIN?.startsWith('https://') ? e.PUBLIC_ORIGIN : 'mailto:push@qless.invalid'),
        timeoutMs: e.PUSH_TIMEOUT_MS,
      },
      /** The outbox worker (every channel) and the reminder sweep, in this process. */
      outbox: {
        workerEnabled: e.OUTBOX_WORKER_ENABLED ?? e.MAIL_WORKER_ENABLED ?? true,
        workerIntervalMs: e.OUTBOX_WORKER_INTERVAL_MS ?? e.MAIL_WORKER_INTERVAL_MS ?? 5000,
        batchSize: e.OUTBOX_BATCH_SIZE,
        remindersEnabled: e.REMINDERS_ENABLED,
        reminderIntervalMs: e.REMINDER_SWEEP_INTERVAL_MS,
      },
      /** The queue's sweep (no-shows past the late grace, open visits at closing time). */
      queueSweep: {
        enabled: e.QUEUE_SWEEP_ENABLED,
        intervalMs: e.QUEUE_SWEEP_INTERVAL_MS,
      },
      /** Password reset and invitation links. */
      links: {
        /** Reset requests per e-mail address, and per client address, per hour. */
        resetsPerAccount: e.PASSWORD_RESETS_PER_ACCOUNT,
        resetsPerIp: e.PASSWORD_RESETS_PER_IP,
        /** Link checks (reset confirmations, invitation look-ups and acceptances) per client address per 15 minutes. */
        checksPerIp: e.LINK_CHECKS_PER_IP,
        /** Invitation e-mails (invite and re-send) per organization per hour and per day. */
        invitationsPerOrgHour: e.INVITATIONS_PER_ORG_HOUR,
        invitationsPerOrgDay: e.INVITATIONS_PER_ORG_DAY,
      },
      /** Null: counters and fan-out in PostgreSQL; else in Redis (decision 033). */
      redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_PREFIX } : null,
      /** Public catalogue answers kept in memory (modules/catalog/read-cache.ts). */
      readCache: {
        enabled: e.READ_CACHE_ENABLED,
        maxEntries: e.READ_CACHE_MAX_ENTRIES,
        maxBytes: e.READ_CACHE_MAX_MB * 1024 * 1024,
        heartbeatMs: e.READ_CACHE_HEARTBEAT_MS,
      },
      /** The audit log (decision 032): days an entry is kept before the sweep prunes it. */
      audit: { retentionDays: e.AUDIT_RETENTION_DAYS },
      /** Personal data (decision 031): days a customer's data is kept once what it was for ended. */
      personalData: { retentionDays: e.PERSONAL_DATA_RETENTION_DAYS },
      /** false: the server only checks that its migrations are applied (the deploy ran them). */
      migrateOnStart: e.MIGRATE_ON_START,
      /** Earlier builds' `assets` folders, also served at /assets/ (a page of the last release). */
      webAssetsFallbackDirs: e.WEB_ASSETS_FALLBACK_DIRS.map((d) => path.resolve(d)),
      /** Prometheus /metrics (decision 029): null port and token: not served at all. */
      metrics: {
        /** A listener of its own (0: any free port, tests); null: none. */
        port: e.METRICS_PORT ?? null,
        host: e.METRICS_HOST,
        /** Bearer token for /metrics on the main port; null: not served there. */
        token: e.METRICS_TOKEN ?? null,
      },
      /** After SIGTERM: drain, hand back and close within this, else exit 1 (decision 028). */
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
      /** After SIGTERM: idle kept-alive connections stay open this long (decision 028). */
      shutdownIdleGraceMs: e.SHUTDOWN_IDLE_GRACE_MS,
      /** Tests only (NODE_ENV=test): the server's clock starts at this instant and runs on. */
      fakeNow: e.QLESS_FAKE_NOW ? new Date(e.QLESS_FAKE_NOW) : null,
    };
  });

/** The server's configuration, as loadConfig reads it from the environment. */
export type Config = z.output<typeof configSchema>;
export type PaymentsConfig = Config['payments'];
export type LimitsConfig = Config['limits'];
export type AuthConfig = Config['auth'];
export type MailConfig = Config['mail'];
export type SmsConfig = Config['sms'];
export type OutboxConfig = Config['outbox'];
export type LinksConfig = Config['links'];

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the environment once. Every bad key is reported together. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset" so that `FOO= npm start` behaves like no FOO at all.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`),
    );
  }
  return parsed.data;
}
