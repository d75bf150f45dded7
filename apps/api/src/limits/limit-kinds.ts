/** The vocabulary of limits.ts's table: how a limit counts, whom, and how it refuses. */
import type { ErrorCode } from '@qless/contract';
import type { Config } from '../config.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * How a limit is counted:
 * - `route`: by @fastify/rate-limit on the route's config, with route-store.ts (the route
 *   and the client address name the counter; in memory on PGlite, decision 014);
 * - `counter`: by limiter.ts, one rate_counters row (or Redis key, with REDIS_URL: decision
 *   033) per key and fixed window, counted before the work it guards so that requests sent
 *   at once cannot all pass;
 * - `live`: rows that exist now (pending payments, held seats), counted by hold-limits.ts
 *   under the client's lock in the hold's transaction;
 * - `open`: connections open now, in this process.
 */
export type Counting = 'route' | 'counter' | 'live' | 'open';

/** Whose requests one count adds up. */
export type Per =
  | 'client address'
  | 'client address, on one service'
  | 'phone number, from one client address'
  | 'phone number, from every client address'
  | 'e-mail address'
  | 'e-mail address, from one client address'
  | 'ticket code, from one client address'
  | 'invited e-mail address'
  | 'organization'
  | 'service'
  | 'ticket code'
  | 'callback client'
  | 'kiosk link'
  | 'phone number a message is sent to'
  | 'everyone';

export interface Refusal {
  /** 429, 409 (a state that waiting a minute does not change), or a refused socket's close code. */
  status: 429 | 409 | 4429;
  code: ErrorCode;
  message: string;
}

export interface LimitDeclaration {
  counting: Counting;
  /** What one count is (the words of the table in docs/configuration.md). */
  counts: string;
  per: Per;
  /** Prefix of the rate_counters key (`counter` limits); the subject is appended. */
  key?: string;
  /** Fixed window; null when what is counted is what exists now. */
  windowMs: ((config: Config) => number) | null;
  max: (config: Config) => number;
  /** The environment setting that overrides `max`; null when it is fixed. */
  setting: string | null;
  /** The environment setting that overrides `windowMs`, when one does. */
  windowSetting?: string;
  /** The answer once the limit is spent; null: the work is skipped, the request answered. */
  refusal: Refusal | null;
  /** What happens once it is spent, when no request is refused (`refusal` null). */
  spent?: string;
  /** A reserved count is given back when the attempt succeeds (a right password). */
  takenBackOnSuccess?: boolean;
}

export const fixed = (ms: number) => () => ms;

export const RATE_LIMITED: Refusal = {
  status: 429,
  code: 'RATE_LIMITED',
  message: 'Too many requests. Please wait a moment and try again.',
};
export const TOO_MANY_ACCESS_ATTEMPTS: Refusal = {
  status: 429,
  code: 'TOO_MANY_ACCESS_ATTEMPTS',
  message:
    'Too many tries for this ticket. Wait a while, or open the link from your SMS or e-mail.',
};
export const TOO_MANY_LOGIN_ATTEMPTS: Refusal = {
  status: 429,
  code: 'TOO_MANY_LOGIN_ATTEMPTS',
  message: 'Too many failed sign-ins. Wait a few minutes, or reset your password.',
};
export const TOO_MANY_HOLDS: Refusal = {
  status: 429,
  code: 'TOO_MANY_HOLDS',
  message:
    'Too many bookings are waiting for payment from this connection. Finish or wait for one, then try again.',
};

export const TOO_MANY_INVITATIONS: Refusal = {
  status: 429,
  code: 'TOO_MANY_INVITATIONS',
  message: 'Too many invitations sent for this organization. Wait a while, then try again.',
};

export const TOO_MANY_VISITS: Refusal = {
  status: 429,
  code: 'TOO_MANY_VISITS',
  message: 'Too many visits were taken from this connection or phone. Ask at the desk.',
};

export const QUEUE_JOINS_BUSY: Refusal = {
  status: 429,
  code: 'QUEUE_JOINS_BUSY',
  message:
    'Many people are joining this queue right now. Wait a minute and try again, or ask at the desk.',
};

export const SELF_JOIN_LINE_FULL: Refusal = {
  status: 409,
  code: 'SELF_JOIN_LINE_FULL',
  message: 'This line has as many visitors from the poster as it can take. Ask at the desk.',
};

export const TOO_MANY_JOIN_CODE_TRIES: Refusal = {
  status: 429,
  code: 'TOO_MANY_JOIN_CODE_TRIES',
  message: 'Too many wrong codes from this connection. Wait a few minutes, or ask at the desk.',
};

export const TOO_MANY_WAITLIST_JOINS: Refusal = {
  status: 429,
  code: 'TOO_MANY_WAITLIST_ENTRIES',
  message: 'Too many waitlist requests from this connection or number. Try again later.',
};

export const paymentWindow = (c: Config) => c.payments.rateLimit.windowMinutes * MINUTE;
export const loginWindow = (c: Config) => c.auth.loginWindowMinutes * MINUTE;
