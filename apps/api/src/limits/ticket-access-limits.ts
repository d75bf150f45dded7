import {
  DAY,
  fixed,
  HOUR,
  type LimitDeclaration,
  TOO_MANY_ACCESS_ATTEMPTS,
} from './limit-kinds.js';

/**
 * Opening a ticket with its code and the last digits of its phone (decision 008): each try is
 * counted per address, per code and per code from anywhere, so guessing a code's digits is slow.
 */
export const TICKET_ACCESS_LIMITS = {
  'ticket-access-tries': {
    counting: 'counter',
    counts: 'tries of phone digits and wrong keys, across codes (a right key is never counted)',
    per: 'client address',
    key: 'ticket-access:ip:',
    windowMs: fixed(HOUR),
    max: (c) => c.limits.ticketAccess.perIpHour,
    setting: 'TICKET_ACCESS_TRIES_PER_IP',
    refusal: TOO_MANY_ACCESS_ATTEMPTS,
  },
  'ticket-access-tries-per-code-address': {
    counting: 'counter',
    counts: 'tries of phone digits, counted before each is checked (a right one is given back)',
    per: 'ticket code, from one client address',
    key: 'ticket-access:code-address:',
    windowMs: fixed(HOUR),
    max: (c) => c.limits.ticketAccess.perCodeHour,
    setting: 'TICKET_ACCESS_TRIES_PER_CODE',
    refusal: TOO_MANY_ACCESS_ATTEMPTS,
    takenBackOnSuccess: true,
  },
  'ticket-access-tries-per-code': {
    counting: 'counter',
    counts:
      'tries of phone digits from every address; once spent, only a first try from an address is checked',
    per: 'ticket code',
    key: 'ticket-access:code:',
    windowMs: fixed(HOUR),
    max: (c) => c.limits.ticketAccess.perCodeHourCeiling,
    setting: 'TICKET_ACCESS_TRIES_PER_CODE_CEILING',
    refusal: TOO_MANY_ACCESS_ATTEMPTS,
    takenBackOnSuccess: true,
  },
  'ticket-access-tries-per-code-day': {
    counting: 'counter',
    counts:
      'tries of phone digits from every address; once spent, only a first try from an address is checked',
    per: 'ticket code',
    key: 'ticket-access:code-day:',
    windowMs: fixed(DAY),
    max: (c) => c.limits.ticketAccess.perCodeDay,
    setting: 'TICKET_ACCESS_TRIES_PER_CODE_DAY',
    refusal: TOO_MANY_ACCESS_ATTEMPTS,
    takenBackOnSuccess: true,
  },
} as const satisfies Record<string, LimitDeclaration>;
