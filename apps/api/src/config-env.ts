import { DEFAULT_TIME_ZONE, isValidTimeZone } from '@qless/contract';
import { z } from 'zod';
import {
  bool,
  DEFAULT_PUSH_SERVICE_ORIGINS,
  httpsOrLocalUrl,
  mailFrom,
  origin,
  pushContact,
  pushServiceOrigins,
  smtpUrl,
  trustProxy,
  workerInterval,
} from './config-fields.js';

/**
 * Every environment variable the server reads, with its default and its check. config.ts
 * checks them together (settings that depend on each other) and shapes them into `Config`.
 */
export const envShape = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  QUEUE_SELF_JOINS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(15),
  QUEUE_SELF_JOINS_WAITING: z.coerce.number().int().min(1).max(999).default(40),
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
  /** The number visitors text to join by SMS, shown on the board (decision 136). */
  SMS_INBOUND_NUMBER: z.string().trim().min(3).max(20).optional(),
  SMS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  SMS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  SMS_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  // What one SMS is reckoned to cost (Insight's estimates and the monthly budget): about USD
  // 0.058 wholesale to MTN and Orange Cameroon, not verified against a bill.
  MESSAGE_PRICE_SMS_XAF: z.coerce.number().min(0).max(10_000).default(35),
  SMS_PER_RECIPIENT_PER_DAY: z.coerce.number().int().min(1).max(1000).default(15),
  // WhatsApp (decision 144): utility templates through the WhatsApp Business Cloud API, tried
  // before SMS for a customer who opted in; off without a token and a phone number id.
  WHATSAPP_API_BASE_URL: httpsOrLocalUrl.default('https://graph.facebook.com/v21.0'),
  WHATSAPP_ACCESS_TOKEN: z.string().trim().min(20).max(1000).optional(),
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .trim()
    .regex(/^\d{5,30}$/, 'must be the digits of the WhatsApp business phone number id')
    .optional(),
  WHATSAPP_APP_SECRET: z.string().trim().min(16).max(200).optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().trim().min(16).max(200).optional(),
  WHATSAPP_TEMPLATE_PREFIX: z
    .string()
    .regex(/^[a-z0-9_]{0,40}$/, 'must be lower-case letters, digits and _')
    .default('qless_'),
  WHATSAPP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  MESSAGE_PRICE_WHATSAPP_XAF: z.coerce.number().min(0).max(10_000).default(2.5),
  // Web push (decision 142): the free channel, tried before SMS for the kinds that take it.
  WEB_PUSH_ENABLED: bool.default(true),
  PUSH_SERVICE_ORIGINS: z.string().default(DEFAULT_PUSH_SERVICE_ORIGINS).pipe(pushServiceOrigins),
  PUSH_CONTACT: pushContact.optional(),
  PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
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
};
