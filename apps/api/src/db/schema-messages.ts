import type { Generated } from 'kysely';

/** The outbox (005, 008, 030, 032) and web push subscriptions (032). */

export type OutboxChannel = 'email' | 'sms' | 'push' | 'whatsapp';
export type OutboxStatus = 'pending' | 'sent' | 'failed' | 'skipped';

/** Every outgoing message: account mail and customers' booking messages (005, 008). */
export interface OutboxTable {
  id: Generated<string>;
  channel: Generated<OutboxChannel>;
  status: Generated<OutboxStatus>;
  /** An e-mail address, or an E.164 phone number for SMS. */
  to_address: string;
  /** Null for SMS, and for a booking message until it is rendered (when it is sent). */
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  /** What the message is for (invitation, password_reset, booking_reminder_2h…). */
  kind: string;
  /** A customer message's organization (migration 033): what Insight counts and budgets. */
  organization_id: string | null;
  /** Booking messages: the booking, which of its times (see booking-messages.ts), language. */
  booking_id: string | null;
  occurrence: string | null;
  locale: 'en' | 'fr' | null;
  /** Unique: one row per (booking, event, occurrence, channel). */
  dedupe_key: string | null;
  /** After this the message is skipped, not sent ("too late", migration 030); null: never. */
  useful_until: Date | null;
  /**
   * What came back after it was sent (migration 032): a push shown on the phone, a delivery
   * report; null while nobody said (a push service's 201 only means accepted).
   */
  delivered_at: Date | null;
  delivery: 'delivered' | 'failed' | null;
  /** Who took the message (smtp, simulator, africastalking, web-push) and its id there. */
  provider: string | null;
  provider_message_id: string | null;
  created_at: Date;
  sent_at: Date | null;
  attempts: Generated<number>;
  /** Due time of the next attempt while pending; the lease end while being sent. */
  next_attempt_at: Date | null;
  last_error: string | null;
  /** The request that started it (X-Request-Id), logged by the work it causes (migration 022). */
  request_id: string | null;
  /** Set once its personal data was erased or replaced (migration 020, decision 031). */
  personal_data_erased_at: Generated<Date | null>;
}

/** A phone's web push subscription for one booking or visit (migration 032). */
export interface PushSubscriptionsTable {
  id: Generated<string>;
  /** `booking:{id}` or `visit:{id}` (the first visit of a transfer chain). */
  about: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  locale: 'en' | 'fr';
  created_at: Date;
  expires_at: Date;
  /** Its push service answered 404 or 410: never used again. */
  gone_at: Date | null;
}
