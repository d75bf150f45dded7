import path from 'node:path';
import { DEFAULT_TIME_ZONE, isValidTimeZone } from '@qless/contract';
import { z } from 'zod';
import {
  bool,
  httpsOrLocalUrl,
  mailFrom,
  origin,
  smtpUrl,
  trustProxy,
  workerInterval,
} from './config-fields.js';

const apiRoot = path.resolve(import.meta.dirname, '..');

/**
 * Every setting once: its name, default and check, and where it lands in the server's
 * configuration (the transform at the end). `Config` is this schema's output.
 */
const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    // Backups (decision 030): where `npm run backup` writes its qless-<UTC time> folders.
    BACKUP_DIR: z.string().min(1).default('./backups'),
    SEED_DEMO: bool.optional(),
    READ_CACHE_ENABLED: bool.default(true),
    READ_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
    READ_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(64),
    READ_CACHE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    PUBLIC_ORIGIN: origin.optional(),
    CORS_ORIGINS: z
      .string()
      .default('')
      .transform((s) =>
        s
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .pipe(z.array(origin)),
    WEB_DIST_DIR: z.string().min(1).optional(),
    DEFAULT_TIME_ZONE: z
      .string()
      .default(DEFAULT_TIME_ZONE)
      .refine(isValidTimeZone, `must be an IANA time zone such as ${DEFAULT_TIME_ZONE}`),
    TRUST_PROXY: trustProxy.optional(),
    PAYMENT_PROVIDER: z.enum(['simulator', 'campay']).optional(),
    SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
    CAMPAY_BASE_URL: z.url().default('https://demo.campay.net'),
    CAMPAY_USERNAME: z.string().min(1).optional(),
    CAMPAY_PASSWORD: z.string().min(1).optional(),
    CAMPAY_WEBHOOK_KEY: z.string().min(8).optional(),
    CAMPAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    HOLD_MINUTES: z.coerce.number().int().min(1).max(120).default(10),
    BOOKING_HORIZON_DAYS: z.coerce.number().int().min(1).max(366).default(60),
    PAYMENT_MAX_PENDING_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
    RECONCILER_ENABLED: bool.default(true),
    RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
    RECONCILE_AFTER_MS: z.coerce.number().int().min(0).max(3_600_000).default(20_000),
    RECONCILE_CHECKS_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(12),
    TICKET_SIGNING_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    RATE_LIMIT_INITIATE_PER_IP: z.coerce.number().int().min(1).default(300),
    RATE_LIMIT_INITIATE_PER_PHONE: z.coerce.number().int().min(1).default(5),
    RATE_LIMIT_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
    PAYMENT_PROMPTS_PER_PHONE: z.coerce.number().int().min(1).default(6),
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .max(3_600_000)
      .default(30_000),
    DATABASE_STALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(1500),
    RATE_LIMIT_CONTACT_PER_IP: z.coerce.number().int().min(1).default(20),
    RATE_LIMIT_TICKET_PER_IP: z.coerce.number().int().min(1).default(60),
    RATE_LIMIT_TICKET_GLOBAL: z.coerce.number().int().min(1).default(1200),
    TICKET_ACCESS_TRIES_PER_CODE: z.coerce.number().int().min(1).max(100).default(5),
    TICKET_ACCESS_TRIES_PER_CODE_CEILING: z.coerce.number().int().min(1).max(1000).default(20),
    TICKET_ACCESS_TRIES_PER_CODE_DAY: z.coerce.number().int().min(1).max(1000).default(50),
    TICKET_ACCESS_TRIES_PER_IP: z.coerce.number().int().min(1).default(30),
    HOLDS_PER_IP: z.coerce.number().int().min(1).default(30),
    HOLDS_PER_IP_PER_SERVICE: z.coerce.number().int().min(1).default(10),
    STATUS_SOCKETS_PER_IP: z.coerce.number().int().min(1).default(50),
    UPLOADS_PER_ORG_DAY: z.coerce.number().int().min(1).default(20),
    SESSION_IDLE_MINUTES: z.coerce.number().int().min(5).max(43_200).default(720),
    SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(2160).default(168),
    LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
    LOGIN_FAILURES_PER_ACCOUNT_CEILING: z.coerce.number().int().min(1).default(50),
    LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).default(20),
    LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
    SMTP_URL: smtpUrl.optional(),
    MAIL_FROM: mailFrom.optional(),
    OUTBOX_WORKER_ENABLED: bool.optional(),
    OUTBOX_WORKER_INTERVAL_MS: workerInterval.optional(),
    // The outbox worker's former names (it delivered mail only), still read.
    MAIL_WORKER_ENABLED: bool.optional(),
    MAIL_WORKER_INTERVAL_MS: workerInterval.optional(),
    OUTBOX_BATCH_SIZE: z.coerce.number().int().min(1).max(200).default(20),
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
    MAIL_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
    SMS_PROVIDER: z.enum(['simulator', 'africastalking']).default('simulator'),
    AFRICASTALKING_BASE_URL: httpsOrLocalUrl.default('https://api.africastalking.com'),
    AFRICASTALKING_USERNAME: z.string().trim().min(1).max(100).optional(),
    AFRICASTALKING_API_KEY: z.string().trim().min(8).max(500).optional(),
    AFRICASTALKING_SENDER_ID: z
      .string()
      .trim()
      .regex(
        /^(?:[A-Za-z0-9 ]{1,11}|\+?\d{3,15})$/,
        'must be an alphanumeric sender id of 1 to 11 characters or a short code',
      )
      .optional(),
    SMS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    SMS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
    SMS_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    REMINDERS_ENABLED: bool.default(true),
    REMINDER_SWEEP_INTERVAL_MS: workerInterval.default(60_000),
    QUEUE_SWEEP_ENABLED: bool.default(true),
    QUEUE_SWEEP_INTERVAL_MS: workerInterval.default(60_000),
    PASSWORD_RESETS_PER_ACCOUNT: z.coerce.number().int().min(1).default(3),
    PASSWORD_RESETS_PER_IP: z.coerce.number().int().min(1).default(20),
    LINK_CHECKS_PER_IP: z.coerce.number().int().min(1).default(60),
    INVITATIONS_PER_ORG_HOUR: z.coerce.number().int().min(1).default(20),
    INVITATIONS_PER_ORG_DAY: z.coerce.number().int().min(1).default(50),
    // Audit log (decision 032): entries older than this are pruned by a sweep.
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(30).max(3650).default(365),
    // Personal data (decision 031): a finished booking's, visit's... customer data is erased
    // this many days after it finished.
    PERSONAL_DATA_RETENTION_DAYS: z.coerce.number().int().min(7).max(3650).default(90),
    // Deploys (decision 027): false when a deploy runs `migrate` once before the processes start.
    MIGRATE_ON_START: bool.default(true),
    WEB_ASSETS_FALLBACK_DIRS: z
      .string()
      .default('')
      .transform((s) =>
        s
          .split(',')
          .map((d) => d.trim())
          .filter(Boolean),
      ),
    // Metrics (decision 029): Prometheus on a listener of its own, and/or behind a token.
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
    // Graceful shutdown (decision 028): the whole drain after SIGTERM, then exit 1.
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
    // Behind a proxy that keeps connections to the app: idle ones stay open this long after
    // SIGTERM (longer than the proxy's upstream keep-alive timeout), so none is closed as the
    // proxy writes a request on it. 0: closed at once (no proxy, or one that does not pool).
    SHUTDOWN_IDLE_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    // Beyond one database (decision 033): rate counters and fan-out through Redis when set.
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1 to 64 letters, digits or : _ . -')
      .default('qless:'),
    QLESS_FAKE_NOW: z.iso.datetime({ offset: true }).optional(),
  })
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
        /** Upper bound of one request to the gateway. */
        timeoutMs: e.SMS_TIMEOUT_MS,
        maxAttempts: e.SMS_MAX_ATTEMPTS,
        retryBaseMs: e.SMS_RETRY_BASE_MS,
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
