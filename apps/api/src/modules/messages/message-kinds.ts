import type { OutboxChannel } from '../../db/schema.js';

/**
 * Every kind of message a customer gets, the one list (decision 140): when it is sent, to
 * whom, on which channels, its dedupe key, and how long it is worth sending. docs/messages.md
 * is checked against it (messages-doc.test.ts), and the door (message-door.ts) takes only
 * these kinds. Staff mail (invitations, password resets) is not a customer message.
 */
export interface MessageKind {
  /** When it is queued, in the words of docs/messages.md. */
  when: string;
  /** Who gets it, and where. */
  to: string;
  channels: readonly OutboxChannel[];
  /** The outbox's dedupe key, `{…}` standing for what it holds: one message per key, ever. */
  dedupe: string;
  /**
   * How long after it is due it is still worth sending; past that the worker records it
   * skipped ("too late"), never sent. Null: it has no such moment (or its own, see `stale`).
   */
  usefulForMs: number | null;
  /** What else makes it no longer worth sending, checked when it is due. */
  stale: string;
  /**
   * Counted against the number's daily cap (`messages-per-recipient`); false for what the
   * branch or a payment bounds already and the customer cannot lose: a turn, a confirmation.
   */
  capped: boolean;
  /**
   * A free channel first (decisions 142, 144): to a customer whose phone subscribed to web push,
   * or else who asked for WhatsApp, the message goes that way at once and the SMS waits this
   * long, sent only if it was not shown or delivered by then. Null: SMS (and e-mail) only.
   */
  freeFirstMs: number | null;
  /**
   * Held during quiet hours (21:00–07:00 in the organization's zone) and sent at 07:00; false
   * for what the customer is waiting for now (a turn, an answer, what they just did).
   */
  quiet: boolean;
}

/** Quiet hours, in minutes of the organization's day: no held kind is sent from 21:00 to 07:00. */
export const QUIET_HOURS = { from: 21 * 60, to: 7 * 60 } as const;

const MINUTE = 60_000;

/** A kind worth sending for `minutes` after it is due, and what the document says of it. */
const lateAfter = (minutes: number) => ({
  usefulForMs: minutes * MINUTE,
  stale:
    minutes % 60 === 0 && minutes >= 60
      ? `more than ${minutes / 60 === 24 ? 'a day' : `${minutes / 60} hours`} late`
      : `more than ${minutes} minutes late`,
});
const BOOKING_TO = "the customer: SMS to the booking's phone, and e-mail when one was given";
const BOOKING_DEDUPE = 'booking:{booking}:{event}:{occurrence}:{channel}';
// A booking message's text is written when it is sent, from the booking as it then stands
// (message-preparer.ts), which also says when it is no longer true.
const NOT_CONFIRMED = 'the booking is no longer confirmed';

/** A booking message: SMS and e-mail, one per booking, event, occurrence and channel. */
const booking = (
  when: string,
  stale: string,
  flags: { quiet: boolean; capped: boolean },
): MessageKind => ({
  when,
  to: BOOKING_TO,
  channels: ['sms', 'email'],
  dedupe: BOOKING_DEDUPE,
  usefulForMs: null,
  stale,
  freeFirstMs: null,
  ...flags,
});

export const MESSAGE_KINDS = {
  // The customer has just paid, or just moved the booking, and waits for the word.
  booking_confirmation: booking('a booking is confirmed (its payment succeeded)', NOT_CONFIRMED, {
    quiet: false,
    capped: false,
  }),
  booking_reminder_day_before: booking(
    "the day before the booking, from the reminder sweep (in the organization's zone)",
    `${NOT_CONFIRMED}, was moved since, or its slot has begun`,
    { quiet: true, capped: true },
  ),
  booking_reminder_2h: booking(
    'about two hours before the booking, from the reminder sweep',
    `${NOT_CONFIRMED}, was moved since, or its slot has begun`,
    { quiet: true, capped: true },
  ),
  booking_cancellation: booking(
    'a booking is cancelled, by the customer or by the organization',
    'the booking is not cancelled when it is due',
    // At any hour: the customer must know before setting out (a slot at 07:30), and one who
    // cancelled themselves has just done it.
    { quiet: false, capped: true },
  ),
  booking_reschedule: booking(
    'the customer moves a booking to another slot',
    `${NOT_CONFIRMED}, or was moved again since`,
    { quiet: false, capped: true },
  ),
  queue_near: {
    when: "a waiting visitor's place reaches the organization's notify position while a counter serving their service is open",
    to: "the visitor's phone, when they gave one",
    channels: ['push', 'whatsapp', 'sms'],
    dedupe: 'visit:{visit}:near',
    ...lateAfter(20),
    freeFirstMs: 2 * MINUTE,
    quiet: false,
    capped: false,
  },
  queue_called: {
    when: 'a counter calls the visitor (a recall sends nothing more; a call taken back and made again sends its own)',
    to: "the visitor's phone, when they gave one",
    channels: ['push', 'whatsapp', 'sms'],
    dedupe: 'visit:{visit}:called:{call time in ms}',
    ...lateAfter(10),
    freeFirstMs: MINUTE,
    quiet: false,
    capped: false,
  },
  visit_feedback: {
    when: 'a visit ends done, once the counter’s Undo window is over (a Done taken back withdraws it)',
    to: "the visitor's phone, when they gave one",
    channels: ['sms'],
    dedupe: 'visit:{visit}:feedback',
    ...lateAfter(24 * 60),
    freeFirstMs: null,
    quiet: true,
    capped: true,
  },
  waitlist_offer: {
    when: 'a seat of a full day frees up and is offered to the next on its waitlist (07:00–21:00)',
    to: 'the phone the waitlist entry gave',
    channels: ['sms'],
    dedupe: 'waitlist:{entry}:offer',
    usefulForMs: null,
    stale: 'the offer ended (booked, lapsed or withdrawn) or its hold ran out',
    freeFirstMs: null,
    quiet: true,
    capped: true,
  },
  queue_sms_answer: {
    when: 'a text comes in to the SMS number (JOIN, STATUS, LATE, LEAVE, HELP…)',
    to: 'the phone that texted',
    channels: ['sms'],
    dedupe: 'sms-in:{inbound message}',
    ...lateAfter(30),
    freeFirstMs: null,
    quiet: false,
    capped: true,
  },
} as const satisfies Record<string, MessageKind>;

export type CustomerMessageKind = keyof typeof MESSAGE_KINDS;

export const CUSTOMER_MESSAGE_KINDS = Object.keys(MESSAGE_KINDS) as CustomerMessageKind[];

export function isCustomerMessageKind(kind: string): kind is CustomerMessageKind {
  return Object.hasOwn(MESSAGE_KINDS, kind);
}

/** The kinds counted against a number's daily cap. */
export const CAPPED_KINDS = CUSTOMER_MESSAGE_KINDS.filter((k) => MESSAGE_KINDS[k].capped);
