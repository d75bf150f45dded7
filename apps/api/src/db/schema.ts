import type {
  BookingStatus,
  EventSource,
  PaymentStatus,
  PriorityCategory,
  ProviderName,
  RecordedOutcome,
} from '@qless/contract';
import type {
  ColumnType,
  Generated,
  GeneratedAlways,
  Kysely,
  Selectable,
  Transaction,
} from 'kysely';
import type {
  BoardsTable,
  CounterServicesTable,
  CountersTable,
  KiosksTable,
  SmsInboundTable,
  VisitEventsTable,
  VisitFeedbackTable,
  VisitNumbersTable,
  VisitsTable,
  WaitlistEntriesTable,
} from './schema-hall.js';
import type { OutboxTable, PushSubscriptionsTable } from './schema-messages.js';

export type * from './schema-hall.js';
export type * from './schema-messages.js';

/** `time` columns are read as "HH:MM:SS" strings; `date` columns as "yyyy-MM-dd" strings. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

interface OrganizationsTable {
  id: Generated<string>;
  slug: string | null;
  name: string;
  category: Generated<string>;
  city: Generated<string>;
  location: Generated<string>;
  /** The sign-in identity (the first admin's e-mail): never shown to the public. */
  email: string;
  /** The contact address the organization publishes; null: none (migration 012). */
  public_email: string | null;
  image_url: string | null;
  time_zone: string;
  /** Past this spent on SMS in a month, its customers get only free channels (033); null: none. */
  sms_budget_monthly_xaf: Generated<number | null>;
  start_time: string;
  end_time: string;
  active: Generated<boolean>;
  /** Bit d is day d of the week (0 = Sunday); 127 = every day. */
  open_days: Generated<number>;
  /** False for an organization made from a contact request until its admin saves its days (012). */
  open_days_confirmed: Generated<boolean>;
  /** Null until an operator has verified the organization; only verified ones are public. */
  verified_at: Date | null;
  contact_request_id: string | null;
  /** Customers may cancel or reschedule until this many minutes before the slot (007). */
  change_cutoff_minutes: Generated<number>;
  /** The queue (migration 014, decision 020): a booked visitor keeps priority from this many
   * minutes before the slot to this many after it. */
  queue_grace_early_minutes: Generated<number>;
  queue_grace_late_minutes: Generated<number>;
  /** SMS "you are next" when a visitor becomes this-th in line. */
  queue_notify_position: Generated<number>;
  /** Recalls allowed before a called visitor who does not come is a no-show. */
  queue_max_recalls: Generated<number>;
  /** Walk-ins may join from the public page (the QR poster). */
  queue_join_enabled: Generated<boolean>;
  /** Joining from the poster takes the code the board shows (migration 025, decision 125). */
  queue_join_code: Generated<boolean>;
  /** The word texted to join this branch's line by SMS (027); null: not by SMS. */
  sms_keyword: Generated<string | null>;
  /** Where a transfer stands in its new line (migration 024): 'arrival' or 'front'. */
  queue_transfer_place: Generated<'arrival' | 'front'>;
  /** The fair order (migration 028, decision 138): categories served first, their ratio, the
   * premium clients' name, the ageing ceiling. */
  queue_priority_categories: Generated<PriorityCategory[]>;
  queue_premium_label: Generated<string | null>;
  queue_ratio_priority: Generated<number | null>;
  queue_ratio_others: Generated<number | null>;
  queue_ageing_ceiling_minutes: Generated<number | null>;
  /** Minutes a waitlist offer of a freed seat stays open (migration 018, 5–120). */
  waitlist_hold_minutes: Generated<number>;
  /** Branches (migration 019, decision 024): the head of its organization; null for a head. */
  parent_id: Generated<string | null>;
  /** What customers pick the branch by ("Akwa"); null: the organization's only place. */
  branch_name: Generated<string | null>;
  latitude: Generated<number | null>;
  longitude: Generated<number | null>;
  /** Name, city and category folded for search, and the category alone (migration 009, generated). */
  search_text: GeneratedAlways<string>;
  search_category: GeneratedAlways<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface OrganizationClosuresTable {
  organization_id: string;
  closed_on: string;
  reason: Generated<string>;
}

interface ServicesTable {
  id: Generated<string>;
  organization_id: string;
  slug: string | null;
  name: string;
  description: Generated<string>;
  duration_minutes: number;
  capacity: Generated<number>;
  name_fr: string | null;
  description_fr: string | null;
  /** The letter of its queue numbers; null until first used (014). */
  queue_letter: string | null;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface SlotsTable {
  id: Generated<string>;
  service_id: string;
  start_time: string;
  end_time: string;
  retired_at: Date | null;
  created_at: Timestamp;
}

export interface BookingsTable {
  id: Generated<string>;
  organization_id: string;
  service_id: string;
  slot_id: string;
  booking_date: string;
  seat: Generated<number>;
  status: BookingStatus;
  hold_expires_at: Date | null;
  cus_name: string;
  cus_email: string;
  phone_number: string;
  ticket_code: string | null;
  /** The `/t/{code}` short link of its SMS, made with the first one (migration 031). */
  link_code: Generated<string | null>;
  confirmed_at: Date | null;
  /** Who placed the hold (null: before migration 004, or not over HTTP). */
  client_address: Generated<string | null>;
  checked_in_at: Date | null;
  checked_in_by: string | null;
  /** The scanning device's id for the scan that checked it in (offline sync replays). */
  checked_in_client_id: string | null;
  status_changed_at: Date | null;
  /** Why the organization should look at this booking (e.g. its hours no longer hold it). */
  attention_reason: string | null;
  /** The customer asked for their messages by WhatsApp, when (migration 034). */
  whatsapp_opt_in_at: Generated<Date | null>;
  /** The customer's language for messages (007). */
  locale: Generated<'en' | 'fr'>;
  cancelled_by: 'customer' | 'organization' | null;
  /** Who marked it a no-show: the counter, or the queue's sweep past the late grace (015). */
  no_show_by: Generated<'organization' | 'system' | null>;
  /** The last reschedule, and where it moved the booking from (007). */
  rescheduled_at: Date | null;
  rescheduled_from_date: string | null;
  rescheduled_from_slot_id: string | null;
  reschedule_count: Generated<number>;
  /** Set once its personal data was erased or replaced (migration 020, decision 031). */
  personal_data_erased_at: Generated<Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PaymentsTable {
  id: Generated<string>;
  booking_id: string;
  reference: string;
  request_fingerprint: string;
  provider: ProviderName;
  provider_reference: string | null;
  amount: number;
  currency: string;
  phone_number: string;
  status: PaymentStatus;
  failure_code: string | null;
  needs_refund: Generated<boolean>;
  refund_reason: string | null;
  ussd_code: string | null;
  operator: string | null;
  operator_reference: string | null;
  settled_at: Date | null;
  last_checked_at: Date | null;
  needs_review: Generated<boolean>;
  review_reason: string | null;
  /** The request that started it (X-Request-Id), logged by the work it causes (migration 022). */
  request_id: string | null;
  /** Set once its personal data was erased or replaced (migration 020, decision 031). */
  personal_data_erased_at: Generated<Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface PaymentEventsTable {
  id: Generated<string>;
  payment_id: string | null;
  provider: ProviderName;
  source: EventSource;
  signature_valid: boolean;
  outcome: RecordedOutcome;
  payload: ColumnType<Record<string, unknown>, string, string>;
  /** Set once its personal data was erased or replaced (migration 020, decision 031). */
  personal_data_erased_at: Generated<Date | null>;
  received_at: Timestamp;
}

interface ContactRequestsTable {
  id: Generated<string>;
  user_name: string;
  user_email: string;
  message: string;
  /** Who to call back and on which number (012; blank on older requests). */
  contact_name: Generated<string>;
  phone: Generated<string>;
  status: Generated<'new' | 'approved' | 'rejected'>;
  handled_at: Date | null;
  handled_by: string | null;
  /** Set once its personal data was erased or replaced (migration 020, decision 031). */
  personal_data_erased_at: Generated<Date | null>;
  created_at: Timestamp;
}

export type Role = 'operator' | 'org_admin' | 'branch_manager' | 'staff';

interface UsersTable {
  id: Generated<string>;
  /** Stored lower-case. */
  email: string;
  name: Generated<string>;
  role: Role;
  /** Null for operators only. */
  organization_id: string | null;
  /** argon2id; null until an invited person sets a password. */
  password_hash: string | null;
  active: Generated<boolean>;
  password_changed_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface SessionsTable {
  /** SHA-256 (hex) of the bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  /** Sliding: moved forward as the session is used, never past absolute_expires_at. */
  expires_at: Date;
  absolute_expires_at: Date;
  revoked_at: Date | null;
  user_agent: string | null;
}

interface UserTokensTable {
  token_hash: string;
  user_id: string;
  purpose: 'invite' | 'reset';
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

interface UploadsTable {
  id: Generated<string>;
  organization_id: string;
  file_name: string;
  content_type: 'image/png' | 'image/jpeg' | 'image/webp';
  bytes: number;
  created_by: string | null;
  created_at: Date;
}

interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export interface DB {
  organizations: OrganizationsTable;
  services: ServicesTable;
  slots: SlotsTable;
  bookings: BookingsTable;
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
  contact_requests: ContactRequestsTable;
  app_secrets: AppSecretsTable;
  rate_counters: RateCountersTable;
  users: UsersTable;
  sessions: SessionsTable;
  user_tokens: UserTokensTable;
  outbox: OutboxTable;
  push_subscriptions: PushSubscriptionsTable;
  uploads: UploadsTable;
  organization_closures: OrganizationClosuresTable;
  counters: CountersTable;
  counter_services: CounterServicesTable;
  visit_numbers: VisitNumbersTable;
  visits: VisitsTable;
  visit_events: VisitEventsTable;
  boards: BoardsTable;
  kiosks: KiosksTable;
  sms_inbound: SmsInboundTable;
  waitlist_entries: WaitlistEntriesTable;
  visit_feedback: VisitFeedbackTable;
  audit_log: AuditLogTable;
  simulator_collects: SimulatorCollectsTable;
}

/** The payment simulator's record of the collects it accepted (migration 023). */
export interface SimulatorCollectsTable {
  payment_id: string;
  reference: string;
  collected_at: Date;
}

/** The audit log (migration 021, decision 032): append-only; a trigger refuses changes. */
export interface AuditLogTable {
  id: Generated<string>;
  at: Date;
  /** Snapshots of the account as it was (no foreign key: entries outlive accounts). */
  actor_user_id: string | null;
  actor_role: Role | null;
  actor_email: string | null;
  /** The branch acted on, when any. */
  organization_id: string | null;
  action: string;
  /** The ids in the route's parameters (never a token or a code). */
  target: ColumnType<Record<string, string>, string | undefined, never>;
  /** The HTTP status of the answer. */
  outcome: number;
  client_address: string | null;
  user_agent: string | null;
  request_id: string | null;
}

/** Fixed-window counters shared by every process (migration 004). */
export interface RateCountersTable {
  key: string;
  window_start: Date;
  count: number;
}

/** Repositories take either the database or a transaction, so work composes into one transaction. */
export type Db = Kysely<DB> | Transaction<DB>;

export type WaitlistEntryRow = Selectable<WaitlistEntriesTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type ServiceRow = Selectable<ServicesTable>;
export type SlotRow = Selectable<SlotsTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type VisitRow = Selectable<VisitsTable>;
export type CounterRow = Selectable<CountersTable>;
