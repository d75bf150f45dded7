import {
  DAY,
  fixed,
  HOUR,
  type LimitDeclaration,
  RATE_LIMITED,
  TOO_MANY_VISITS,
  TOO_MANY_WAITLIST_JOINS,
} from './limit-kinds.js';

/** The hall's public doors: taking a number, the word after a visit, the waitlist of full days. */
export const HALL_LIMITS = {
  // The public join page (issue 19): anyone at the door may take a number, so without
  // limits one person could fill a queue with names. A phone joins a few times a day at most.
  'queue-joins-per-address': {
    counting: 'counter',
    counts: 'visits joined from the public page (`POST /join/{organizationId}`)',
    per: 'client address',
    key: 'queue-join:ip:',
    windowMs: fixed(HOUR),
    max: () => 5,
    setting: null,
    refusal: TOO_MANY_VISITS,
  },
  'queue-joins-per-phone': {
    counting: 'counter',
    counts: 'visits joined from the public page with this phone number',
    per: 'phone number, from every client address',
    key: 'queue-join:phone:',
    windowMs: fixed(DAY),
    max: () => 3,
    setting: null,
    refusal: TOO_MANY_VISITS,
  },
  // A word after the visit (issue 20): a link takes one answer, so this only bounds what one
  // address may send at links it holds (many honest customers share a carrier address).
  'feedback-answers-per-address': {
    counting: 'counter',
    counts: 'feedback answers (`POST /feedback/{token}`), counted once the link is checked',
    per: 'client address',
    key: 'feedback:ip:',
    windowMs: fixed(HOUR),
    max: () => 30,
    setting: null,
    refusal: RATE_LIMITED,
  },
  // The waitlist of full days (issue 20, decision 023): joining sends no SMS, and an entry
  // gets one offer SMS at most, so these bound what typing a stranger's number can cause.
  'waitlist-joins-per-address': {
    counting: 'counter',
    counts: 'waitlist joins (`POST /service/{serviceId}/waitlist`)',
    per: 'client address',
    key: 'waitlist-join:ip:',
    windowMs: fixed(HOUR),
    max: () => 10,
    setting: null,
    refusal: TOO_MANY_WAITLIST_JOINS,
  },
  'waitlist-joins-per-phone': {
    counting: 'counter',
    counts: 'waitlist joins with this phone number',
    per: 'phone number, from every client address',
    key: 'waitlist-join:phone:',
    windowMs: fixed(DAY),
    max: () => 6,
    setting: null,
    refusal: TOO_MANY_WAITLIST_JOINS,
  },
} as const satisfies Record<string, LimitDeclaration>;
