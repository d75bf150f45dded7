/** The server's configuration, as loadConfig (config.ts) reads it from the environment. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  logLevel: string;
  /** Unset: embedded PGlite in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  seedDemo: boolean;
  /** Origins whose pages may call the API and open sockets: the public origin plus CORS_ORIGINS. */
  publicOrigin: string;
  corsOrigins: string[];
  webDistDir: string;
  mediaDir: string;
  defaultTimeZone: string;
  /** false: no proxy; a number: that many proxies in front; a list: the proxies' addresses. */
  trustProxy: false | number | string[];
  payments: PaymentsConfig;
  /** PostgreSQL only (PGlite runs in this process). */
  databaseTimeouts: { connectMs: number; statementMs: number; idleInTransactionMs: number };
  limits: LimitsConfig;
  auth: AuthConfig;
  mail: MailConfig;
  sms: SmsConfig;
  outbox: OutboxConfig;
  links: LinksConfig;
  /** Public catalogue answers kept in memory (modules/catalog/read-cache.ts). */
  readCache: { enabled: boolean; maxEntries: number; maxBytes: number; heartbeatMs: number };
  /** Tests only (NODE_ENV=test): the server's clock starts at this instant and runs on. */
  fakeNow: Date | null;
}

export interface MailConfig {
  /** Null: no SMTP server; mail waits in the outbox, where operators read it. */
  smtpUrl: string | null;
  from: string | null;
  /** Delivery attempts of one mail before it is given up. */
  maxAttempts: number;
  /** Wait after the first failed attempt; doubled after each further one (capped at 1 h). */
  retryBaseMs: number;
}

export interface SmsConfig {
  /** simulator: recorded in the outbox as sent, nothing leaves the machine. */
  provider: 'simulator' | 'africastalking';
  africastalking: {
    baseUrl: string;
    username: string;
    apiKey: string;
    senderId: string | null;
  } | null;
  /** Upper bound of one request to the gateway. */
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
}

/** The outbox worker (every channel) and the reminder sweep, in this process. */
export interface OutboxConfig {
  workerEnabled: boolean;
  workerIntervalMs: number;
  batchSize: number;
  remindersEnabled: boolean;
  reminderIntervalMs: number;
}

/** Password reset and invitation links. */
export interface LinksConfig {
  /** Reset requests per e-mail address, and per client address, per hour. */
  resetsPerAccount: number;
  resetsPerIp: number;
  /** Link checks (reset confirmations, invitation look-ups and acceptances) per client address per 15 minutes. */
  checksPerIp: number;
}

export interface AuthConfig {
  /** A session unused this long ends; each use moves the end forward. */
  sessionIdleMinutes: number;
  /** No session lives longer than this from sign-in, however used. */
  sessionAbsoluteHours: number;
  /** Failed sign-ins allowed per account and per client address in one window. */
  loginFailuresPerAccount: number;
  loginFailuresPerIp: number;
  loginWindowMinutes: number;
}

/** Per-address limits are backstops: many honest customers share one carrier address. */
export interface LimitsConfig {
  /** Contact requests per client address per 10 minutes. */
  contactPerIp: number;
  /** Ticket look-ups (and, apart, verifications) per client address per minute. */
  ticketPerIp: number;
  /** Ticket look-ups (and, apart, verifications) from everyone together per minute. */
  ticketGlobal: number;
  /** Open payment status sockets per client address, per process. */
  socketsPerIp: number;
  /**
   * Wrong answers to POST /tickets/{code}/access (ticket code + phone digits) counted before
   * each is checked: per code per hour and per day, per client address per hour.
   */
  ticketAccess: { perCodeHour: number; perCodeDay: number; perIpHour: number };
}

export interface PaymentsConfig {
  provider: 'simulator' | 'campay';
  simulatorDelayMs: number;
  campay: {
    baseUrl: string;
    username: string;
    password: string;
    webhookKey: string;
    timeoutMs: number;
  } | null;
  holdMinutes: number;
  horizonDays: number;
  maxPendingMinutes: number;
  reconcilerEnabled: boolean;
  reconcileIntervalMs: number;
  reconcileAfterMs: number;
  /** Provider status checks one process's reconciler runs at once. */
  reconcileChecksInFlight: number;
  /** Null: generated once and kept in the database (app_secrets). */
  ticketSigningKey: string | null;
  rateLimit: {
    perIp: number;
    perPhone: number;
    windowMinutes: number;
    /** Live holds per client address, in all and on one service. */
    holdsPerIp: number;
    holdsPerIpPerService: number;
  };
}
