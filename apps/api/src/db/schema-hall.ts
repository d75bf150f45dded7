import type {
  CallReason,
  CounterState,
  KioskPaper,
  PriorityCategory,
  VisitSource,
  VisitState,
} from '@qless/contract';
import type { Generated, GeneratedAlways } from 'kysely';
import type { Timestamp } from './schema.js';

/**
 * The hall's tables: the queue (counters, visits, their numbers and events, boards), the word
 * after a visit, and the waitlist of full days. `DB` in schema.ts names them with the rest.
 */

/** A word after the visit (migration 017): one answer per visit that ended done. */
export interface VisitFeedbackTable {
  id: Generated<string>;
  visit_id: string;
  organization_id: string;
  service_id: string;
  /** The visit's day (the organization's zone), copied so Insight reads one table. */
  visit_date: string;
  rating: number;
  /** Trimmed plain text, 1-500 characters; null when none was written. */
  comment: string | null;
  locale: 'en' | 'fr';
  created_at: Timestamp;
}

/** The queue (migration 014). */
export interface CountersTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  state: Generated<CounterState>;
  opened_by: string | null;
  state_changed_at: Date | null;
  /** Retired counters are kept (their visits point at them) and never listed. */
  retired_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CounterServicesTable {
  counter_id: string;
  service_id: string;
  /** The counter helps this line once its own is empty; false: a primary service (029). */
  helps: Generated<boolean>;
}

export interface VisitNumbersTable {
  organization_id: string;
  visit_date: string;
  letter: string;
  last_number: number;
}

export interface VisitsTable {
  id: Generated<string>;
  organization_id: string;
  service_id: string;
  /** The organization's day (its time zone). */
  visit_date: string;
  letter: string;
  number: number;
  source: VisitSource;
  booking_id: string | null;
  customer_name: Generated<string>;
  /** E.164, or null: no SMS. Never shown on a public screen. */
  phone: string | null;
  /** The visitor asked for their turn by WhatsApp, when (migration 034); null: SMS. */
  whatsapp_opt_in_at: Generated<Date | null>;
  locale: Generated<'en' | 'fr'>;
  /** A booked visit: its slot's start (the instant). */
  slot_start: Date | null;
  arrived_at: Date;
  /** When it entered this service's line: arrival, or the transfer that brought it here. */
  queued_at: Date;
  /** Orders it among first-come visitors instead of queued_at (a transfer by arrival, 024). */
  place_at: Generated<Date | null>;
  /** A transfer sent to the front of its new line (024). */
  ahead: Generated<boolean>;
  /** The short code of a walk-in's slip that opens its turn on any phone (026). */
  follow_code: Generated<string | null>;
  /** The kiosk's id of the press that made it: a press sent again gets the same visit (026). */
  request_id: Generated<string | null>;
  /** A category the organization serves first, given by staff (028). */
  priority_category: Generated<PriorityCategory | null>;
  /** How Call next counted the call for the ratio (028); null: outside it. */
  call_kind: Generated<'priority' | 'regular' | null>;
  /** A transfer to a named counter: only it calls the visit while it stands (029). */
  for_counter_id: Generated<string | null>;
  /** The reason of a call out of order (029); null for Call next's calls. */
  call_reason: Generated<CallReason | null>;
  state: Generated<VisitState>;
  counter_id: string | null;
  called_at: Date | null;
  recalls: Generated<number>;
  serving_at: Date | null;
  ended_at: Date | null;
  transferred_from: string | null;
  near_notified_at: Date | null;
  called_notified_at: Date | null;
  client_address: string | null;
  created_by: string | null;
  /** Set once its personal data was erased or replaced (migration 020, decision 031). */
  personal_data_erased_at: Generated<Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VisitEventsTable {
  id: GeneratedAlways<string>;
  visit_id: string;
  organization_id: string;
  kind: string;
  from_state: VisitState | null;
  to_state: VisitState;
  counter_id: string | null;
  by_user: string | null;
  at: Date;
  /** A call by Call next: how the ratio counts it (028); cleared by an Undo of the call. */
  call_kind: Generated<'priority' | 'regular' | null>;
  /** A call out of order: its reason from the short list (029). */
  reason: Generated<CallReason | null>;
}

export interface BoardsTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  token_hash: string;
  created_by: string | null;
  created_at: Timestamp;
  revoked_at: Date | null;
}

/** A kiosk link (026): a board link's twin that adds visitors to its branch's line. */
export interface KiosksTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  paper: Generated<KioskPaper>;
  token_hash: string;
  created_by: string | null;
  created_at: Timestamp;
  revoked_at: Date | null;
}

/** A text received (027): once per provider message id, with what came of it (no number, no text). */
export interface SmsInboundTable {
  id: Generated<string>;
  provider: string;
  provider_message_id: string;
  received_at: Date;
  outcome: Generated<string>;
  visit_id: string | null;
}

export type WaitlistState =
  | 'waiting'
  | 'offered'
  | 'booked'
  | 'lapsed'
  | 'missed'
  | 'expired'
  | 'withdrawn';

/** A phone number waiting for a seat of a service on a full day (migration 018, decision 023). */
export interface WaitlistEntriesTable {
  id: Generated<string>;
  /** The order people joined in. */
  seq: GeneratedAlways<string>;
  organization_id: string;
  service_id: string;
  booking_date: string;
  /** E.164, a Cameroonian mobile. */
  phone: string;
  locale: 'en' | 'fr';
  state: Generated<WaitlistState>;
  client_address: string | null;
  /** SHA-256 (hex) of the key that withdraws the entry; the key itself is never stored. */
  withdraw_key_hash: string;
  offered_slot_id: string | null;
  offered_at: Date | null;
  offer_expires_at: Date | null;
  booking_id: string | null;
  ended_at: Date | null;
  /** Set once its personal data was erased or replaced (migration 020, decision 031). */
  personal_data_erased_at: Generated<Date | null>;
  created_at: Date;
  updated_at: Date;
}
