import type { Config } from '../config.js';
import { HALL_LIMITS } from './hall-limits.js';
import {
  type Counting,
  DAY,
  fixed,
  HOUR,
  type LimitDeclaration,
  loginWindow,
  MINUTE,
  paymentWindow,
  RATE_LIMITED,
  TOO_MANY_HOLDS,
  TOO_MANY_INVITATIONS,
  TOO_MANY_LOGIN_ATTEMPTS,
} from './limit-kinds.js';
import { TICKET_ACCESS_LIMITS } from './ticket-access-limits.js';

export type { Counting, LimitDeclaration, Per, Refusal } from './limit-kinds.js';

/**
 * Every limit of the server, the one place they are declared: the table of limits in
 * docs/configuration.md is checked against this one (limits-table.test.ts). Per-address limits are backstops
 * (many honest customers share one carrier address); what identifies one person carries
 * the real limits.
 */
export const LIMITS = {
  'payment-starts': {
    counting: 'route',
    counts: 'payment starts (`POST /payment/initiate`)',
    per: 'client address',
    windowMs: paymentWindow,
    max: (c) => c.payments.rateLimit.perIp,
    setting: 'RATE_LIMIT_INITIATE_PER_IP',
    windowSetting: 'RATE_LIMIT_WINDOW_MINUTES',
    refusal: RATE_LIMITED,
  },
  'payment-starts-per-phone': {
    counting: 'live',
    counts: 'different slot-dates started (a retry of one already counted is free)',
    per: 'phone number, from one client address',
    windowMs: paymentWindow,
    max: (c) => c.payments.rateLimit.perPhone,
    setting: 'RATE_LIMIT_INITIATE_PER_PHONE',
    windowSetting: 'RATE_LIMIT_WINDOW_MINUTES',
    refusal: {
      status: 429,
      code: 'RATE_LIMITED',
      message:
        'Too many payment requests for this number. Please wait a few minutes and try again.',
    },
  },
  'payment-prompts-per-phone': {
    counting: 'live',
    counts:
      'payment prompts sent to the phone: payments started, on any slot (a repeat of the pending start reuses its prompt)',
    per: 'phone number, from every client address',
    windowMs: fixed(HOUR),
    max: (c) => c.payments.rateLimit.promptsPerPhone,
    setting: 'PAYMENT_PROMPTS_PER_PHONE',
    refusal: {
      status: 429,
      code: 'RATE_LIMITED',
      message:
        'Too many payment requests were sent to this number in the last hour. Please wait and try again later.',
    },
  },
  'holds-per-address': {
    counting: 'live',
    counts: 'seats held (payment pending) at once',
    per: 'client address',
    windowMs: null,
    max: (c) => c.payments.rateLimit.holdsPerIp,
    setting: 'HOLDS_PER_IP',
    refusal: TOO_MANY_HOLDS,
  },
  'holds-per-address-per-service': {
    counting: 'live',
    counts: 'seats held (payment pending) at once',
    per: 'client address, on one service',
    windowMs: null,
    max: (c) => c.payments.rateLimit.holdsPerIpPerService,
    setting: 'HOLDS_PER_IP_PER_SERVICE',
    refusal: TOO_MANY_HOLDS,
  },
  'payment-callbacks': {
    counting: 'route',
    counts: 'provider callbacks (`/payment/callback/{provider}`)',
    per: 'client address',
    windowMs: fixed(MINUTE),
    max: () => 300,
    setting: null,
    refusal: RATE_LIMITED,
  },
  'rejected-callbacks-stored': {
    counting: 'counter',
    counts:
      'rejected callbacks, and callbacks about no payment of ours, stored for review (further ones are answered, not stored)',
    per: 'callback client',
    key: 'callback-rejections:',
    windowMs: fixed(MINUTE),
    max: () => 10,
    setting: null,
    refusal: null,
  },
  'status-sockets': {
    counting: 'open',
    counts: 'open live sockets (payment status, board, visit turn), in each process',
    per: 'client address',
    windowMs: null,
    max: (c) => c.limits.socketsPerIp,
    setting: 'STATUS_SOCKETS_PER_IP',
    refusal: {
      status: 4429,
      code: 'TOO_MANY_SOCKETS',
      message: 'Too many live connections from this address. Close some first.',
    },
  },
  contact: {
    counting: 'route',
    counts: 'contact requests (`POST /contact`)',
    per: 'client address',
    windowMs: fixed(10 * MINUTE),
    max: (c) => c.limits.contactPerIp,
    setting: 'RATE_LIMIT_CONTACT_PER_IP',
    refusal: RATE_LIMITED,
  },
  'ticket-lookups': {
    counting: 'counter',
    counts: 'ticket look-ups (`GET /tickets/{code}`)',
    per: 'client address',
    key: 'ticket-lookup:ip:',
    windowMs: fixed(MINUTE),
    max: (c) => c.limits.ticketPerIp,
    setting: 'RATE_LIMIT_TICKET_PER_IP',
    refusal: RATE_LIMITED,
  },
  'ticket-lookups-all': {
    counting: 'counter',
    counts: 'ticket look-ups (`GET /tickets/{code}`)',
    per: 'everyone',
    key: 'ticket-lookup:all',
    windowMs: fixed(MINUTE),
    max: (c) => c.limits.ticketGlobal,
    setting: 'RATE_LIMIT_TICKET_GLOBAL',
    refusal: RATE_LIMITED,
  },
  'ticket-verifications': {
    counting: 'counter',
    counts: 'ticket verifications by staff (`POST /tickets/verify`)',
    per: 'client address',
    key: 'ticket-verify:ip:',
    windowMs: fixed(MINUTE),
    max: (c) => c.limits.ticketPerIp,
    setting: 'RATE_LIMIT_TICKET_PER_IP',
    refusal: RATE_LIMITED,
  },
  'ticket-verifications-all': {
    counting: 'counter',
    counts: 'ticket verifications by staff (`POST /tickets/verify`)',
    per: 'everyone',
    key: 'ticket-verify:all',
    windowMs: fixed(MINUTE),
    max: (c) => c.limits.ticketGlobal,
    setting: 'RATE_LIMIT_TICKET_GLOBAL',
    refusal: RATE_LIMITED,
  },
  'ticket-access-requests': {
    counting: 'counter',
    counts: 'requests to `POST /tickets/{code}/access`, before any guess is counted',
    per: 'client address',
    key: 'ticket-access:flood:ip:',
    windowMs: fixed(MINUTE),
    max: (c) => c.limits.ticketPerIp,
    setting: 'RATE_LIMIT_TICKET_PER_IP',
    refusal: RATE_LIMITED,
  },
  'ticket-access-requests-all': {
    counting: 'counter',
    counts: 'requests to `POST /tickets/{code}/access`, before any guess is counted',
    per: 'everyone',
    key: 'ticket-access:flood:all',
    windowMs: fixed(MINUTE),
    max: (c) => c.limits.ticketGlobal,
    setting: 'RATE_LIMIT_TICKET_GLOBAL',
    refusal: RATE_LIMITED,
  },
  ...TICKET_ACCESS_LIMITS,
  'sign-ins-per-account-address': {
    counting: 'counter',
    counts: 'failed sign-ins, counted before the password is checked (a right one is given back)',
    per: 'e-mail address, from one client address',
    key: 'login-fail:account-address:',
    windowMs: loginWindow,
    max: (c) => c.auth.loginFailuresPerAccount,
    setting: 'LOGIN_FAILURES_PER_ACCOUNT',
    windowSetting: 'LOGIN_WINDOW_MINUTES',
    refusal: TOO_MANY_LOGIN_ATTEMPTS,
    takenBackOnSuccess: true,
  },
  'sign-ins-per-account': {
    counting: 'counter',
    counts:
      'failed sign-ins from every address; once spent, only a first try from an address is checked',
    per: 'e-mail address',
    key: 'login-fail:account:',
    windowMs: loginWindow,
    max: (c) => c.auth.loginFailuresPerAccountCeiling,
    setting: 'LOGIN_FAILURES_PER_ACCOUNT_CEILING',
    windowSetting: 'LOGIN_WINDOW_MINUTES',
    refusal: TOO_MANY_LOGIN_ATTEMPTS,
    takenBackOnSuccess: true,
  },
  'sign-ins': {
    counting: 'counter',
    counts: 'failed sign-ins, whatever the accounts (a right password is given back)',
    per: 'client address',
    key: 'login-fail:ip:',
    windowMs: loginWindow,
    max: (c) => c.auth.loginFailuresPerIp,
    setting: 'LOGIN_FAILURES_PER_IP',
    windowSetting: 'LOGIN_WINDOW_MINUTES',
    refusal: TOO_MANY_LOGIN_ATTEMPTS,
    takenBackOnSuccess: true,
  },
  'password-resets': {
    counting: 'counter',
    counts: 'password reset requests',
    per: 'client address',
    key: 'reset:ip:',
    windowMs: fixed(HOUR),
    max: (c) => c.links.resetsPerIp,
    setting: 'PASSWORD_RESETS_PER_IP',
    refusal: RATE_LIMITED,
  },
  'password-resets-per-account': {
    counting: 'counter',
    counts: 'password reset requests, whether or not the account exists',
    per: 'e-mail address',
    key: 'reset:account:',
    windowMs: fixed(HOUR),
    max: (c) => c.links.resetsPerAccount,
    setting: 'PASSWORD_RESETS_PER_ACCOUNT',
    refusal: RATE_LIMITED,
  },
  'link-checks': {
    counting: 'counter',
    counts: 'reset confirmations, invitation look-ups and acceptances',
    per: 'client address',
    key: 'link-check:ip:',
    windowMs: fixed(15 * MINUTE),
    max: (c) => c.links.checksPerIp,
    setting: 'LINK_CHECKS_PER_IP',
    refusal: RATE_LIMITED,
  },
  // Each invitation (or re-sent one) is an e-mail to an address the admin typed, with text
  // the admin chose (names): without limits, an admin account is a relay for unsolicited
  // mail that carries the platform's name.
  'invitations-per-address': {
    counting: 'counter',
    counts: 'invitation e-mails (staff invite and re-send)',
    per: 'invited e-mail address',
    key: 'invite:address:',
    windowMs: fixed(DAY),
    max: () => 3,
    setting: null,
    refusal: {
      status: 429,
      code: 'TOO_MANY_INVITATIONS',
      message:
        'This address has been invited too often today. Ask the person to check their spam folder, or try again tomorrow.',
    },
  },
  'invitations-per-organization': {
    counting: 'counter',
    counts: 'invitation e-mails (staff invite and re-send)',
    per: 'organization',
    key: 'invite:org:',
    windowMs: fixed(HOUR),
    max: (c) => c.links.invitationsPerOrgHour,
    setting: 'INVITATIONS_PER_ORG_HOUR',
    refusal: TOO_MANY_INVITATIONS,
  },
  'invitations-per-organization-day': {
    counting: 'counter',
    counts: 'invitation e-mails (staff invite and re-send)',
    per: 'organization',
    key: 'invite:org-day:',
    windowMs: fixed(DAY),
    max: (c) => c.links.invitationsPerOrgDay,
    setting: 'INVITATIONS_PER_ORG_DAY',
    refusal: TOO_MANY_INVITATIONS,
  },
  'uploads-per-organization': {
    counting: 'counter',
    counts: 'image uploads (`POST /uploads`), counted before the image is read',
    per: 'organization',
    key: 'uploads:org:',
    windowMs: fixed(DAY),
    max: (c) => c.limits.uploadsPerOrgDay,
    setting: 'UPLOADS_PER_ORG_DAY',
    refusal: {
      status: 429,
      code: 'UPLOAD_QUOTA_EXCEEDED',
      message: 'This organization has uploaded too many images today. Try again tomorrow.',
    },
  },
  ...HALL_LIMITS,
  // Personal data (decision 031): an operator's export or erasure reads or rewrites every row
  // about one person; a signed-in operator's script cannot sweep the customer base with it.
  'personal-data-requests': {
    counting: 'route',
    counts:
      "exports and erasures of one person's data (`/platform/personal-data`), each route apart",
    per: 'client address',
    windowMs: fixed(10 * MINUTE),
    max: () => 30,
    setting: null,
    refusal: RATE_LIMITED,
  },
  // A booking's short link (decision 141) is as good as its ticket link; its 60 bits are what
  // keeps it from being guessed, this bounds one address's tries (generously: customers of
  // one carrier often share an address).
  'ticket-link-opens-per-address': {
    counting: 'counter',
    counts: "bookings' short links opened (`/t/{code}`; past it, sent to My bookings)",
    per: 'client address',
    key: 'ticket-link:ip:',
    windowMs: fixed(10 * MINUTE),
    max: () => 300,
    setting: null,
    refusal: RATE_LIMITED,
  },
  // Web push (decision 142): a subscription is a row, then posts the server makes; a loop of them is refused.
  'push-subscriptions-per-address': {
    counting: 'counter',
    counts: 'web push subscribes and stops (`/push/subscriptions`, `/push/unsubscribe`)',
    per: 'client address',
    key: 'push-subscribe:ip:',
    windowMs: fixed(10 * MINUTE),
    max: () => 60,
    setting: null,
    refusal: RATE_LIMITED,
  },
  // What one number may cost (decision 140): an SMS is about 35 FCFA, so a number texting
  // the SMS line in a loop, or a bug queueing turn messages, is bounded here, at sending time.
  'messages-per-recipient': {
    counting: 'live',
    counts:
      'customer SMS sent to the number (the kinds docs/messages.md marks capped: not turns or confirmations)',
    per: 'phone number a message is sent to',
    windowMs: fixed(DAY),
    max: (c) => c.sms.perRecipientPerDay,
    setting: 'SMS_PER_RECIPIENT_PER_DAY',
    refusal: null,
    spent: 'not sent: recorded skipped (`recipient cap`)',
  },
} as const satisfies Record<string, LimitDeclaration>;

export type LimitName = keyof typeof LIMITS;

type NamesWhere<C extends Counting> = {
  [K in LimitName]: (typeof LIMITS)[K]['counting'] extends C ? K : never;
}[LimitName];

/** Limits counted in rate_counters by limiter.ts. */
export type CounterLimitName = NamesWhere<'counter'>;
/** `counter` limits that refuse nothing: a budget of extra work (stored rejections). */
export type BudgetLimitName = {
  [K in CounterLimitName]: (typeof LIMITS)[K]['refusal'] extends null ? K : never;
}[CounterLimitName];
/** `counter` limits that answer a request once spent. */
export type RefusingLimitName = Exclude<CounterLimitName, BudgetLimitName>;
/** Limits counted by @fastify/rate-limit on a route's config. */
export type RouteLimitName = NamesWhere<'route'>;

/** A declaration seen through its interface (the table itself is `as const`). */
export function declarationOf(name: LimitName): LimitDeclaration {
  return LIMITS[name];
}

/** The maximum of a limit under this configuration. */
export function maxOf(name: LimitName, config: Config): number {
  return declarationOf(name).max(config);
}

/** The window of a limit under this configuration (a limit with no window has none). */
export function windowOf(name: LimitName, config: Config): number {
  const window = declarationOf(name).windowMs;
  if (!window) throw new Error(`limit ${name} has no window`);
  return window(config);
}

/** The route config of a `route` limit: `config: { rateLimit: routeLimit(...) }`. */
export function routeLimit(
  name: RouteLimitName,
  config: Config,
): { max: number; timeWindow: number } {
  return { max: maxOf(name, config), timeWindow: windowOf(name, config) };
}
