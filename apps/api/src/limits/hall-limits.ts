import {
  DAY,
  fixed,
  HOUR,
  type LimitDeclaration,
  MINUTE,
  QUEUE_JOINS_BUSY,
  RATE_LIMITED,
  SELF_JOIN_LINE_FULL,
  TOO_MANY_JOIN_CODE_TRIES,
  TOO_MANY_VISITS,
  TOO_MANY_WAITLIST_JOINS,
} from './limit-kinds.js';

/** The hall's public doors: taking a number, the word after a visit, the waitlist of full days. */
export const HALL_LIMITS = {
  // The public join page: anyone at the door may take a number, so without
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
  // The code shown in the hall (decision 125): 4 digits are guessed in
  // 10 000 tries at most, so tries are counted before each is checked (a right one is given
  // back). Two windows are accepted: 10 tries in 10 minutes find one in 500 on average.
  'queue-join-code-tries': {
    counting: 'counter',
    counts:
      'wrong codes sent with a join (`POST /join/{organizationId}`; a right one is given back)',
    per: 'client address',
    key: 'queue-join-code:ip:',
    windowMs: fixed(10 * MINUTE),
    max: () => 10,
    setting: null,
    refusal: TOO_MANY_JOIN_CODE_TRIES,
    takenBackOnSuccess: true,
  },
  // The organization's ceilings (decision 125): 60 addresses within their own
  // limits could still fill one line. Counted from the visits under the queue lock, so
  // joins sent at once from any process cannot all pass.
  'queue-self-joins-per-organization': {
    counting: 'live',
    counts: 'visits joined from the public page, whoever joins',
    per: 'organization',
    windowMs: fixed(MINUTE),
    max: (c) => c.limits.selfJoinsPerMinute,
    setting: 'QUEUE_SELF_JOINS_PER_MINUTE',
    refusal: QUEUE_JOINS_BUSY,
  },
  'queue-self-joins-waiting': {
    counting: 'live',
    counts: 'visits joined from the public page waiting now (staff walk-ins and bookings apart)',
    per: 'service',
    windowMs: null,
    max: (c) => c.limits.selfJoinsWaiting,
    setting: 'QUEUE_SELF_JOINS_WAITING',
    refusal: SELF_JOIN_LINE_FULL,
  },
  // The kiosk at the door (decision 135): its link is the proof of presence, and a
  // paper dispenser hands out a number every few seconds at most; this bounds one kiosk that is
  // tapped in a loop (or a link that left the hall) to a busy hall's pace.
  'kiosk-numbers-per-kiosk': {
    counting: 'counter',
    counts: 'numbers taken at a kiosk (`POST /kiosk/{token}/visits`)',
    per: 'kiosk link',
    key: 'kiosk:',
    windowMs: fixed(MINUTE),
    max: () => 12,
    setting: null,
    refusal: QUEUE_JOINS_BUSY,
  },
  // Joining by SMS (decision 136): a phone joins a few times a day at most, and the day's
  // 3-digit code is guessed once in 1,000, so each code is counted before it is checked (a
  // right one is given back), and past 5 wrong ones nothing is checked: 5 a day find one in 200.
  'sms-joins-per-phone': {
    counting: 'counter',
    counts: 'visits joined by SMS from this phone',
    per: 'phone number, from every client address',
    key: 'sms-join:phone:',
    windowMs: fixed(DAY),
    max: () => 3,
    setting: null,
    refusal: TOO_MANY_VISITS,
  },
  'sms-day-code-tries-per-phone': {
    counting: 'counter',
    counts: "wrong codes of the day texted with a branch's word (a right one is given back)",
    per: 'phone number, from every client address',
    key: 'sms-code:phone:',
    windowMs: fixed(DAY),
    max: () => 5,
    setting: null,
    refusal: TOO_MANY_JOIN_CODE_TRIES,
    takenBackOnSuccess: true,
  },
  'kiosk-numbers-per-phone': {
    counting: 'counter',
    counts: 'numbers taken at a kiosk with this phone number (each gets SMS about its turn)',
    per: 'phone number, from every client address',
    key: 'kiosk:phone:',
    windowMs: fixed(DAY),
    max: () => 3,
    setting: null,
    refusal: TOO_MANY_VISITS,
  },
  // A slip's short code is as good as the visit's link: 8 characters of base 32 are not
  // guessed at 30 tries in 10 minutes.
  'follow-code-lookups-per-address': {
    counting: 'counter',
    counts: "slips' short codes looked up (`GET /follow/{code}`)",
    per: 'client address',
    key: 'follow-code:ip:',
    windowMs: fixed(10 * MINUTE),
    max: () => 30,
    setting: null,
    refusal: RATE_LIMITED,
  },
  // A word after the visit: a link takes one answer, so this only bounds what one
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
  // The waitlist of full days (decision 023): joining sends no SMS, and an entry
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
