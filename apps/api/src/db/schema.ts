import type {
  BookingStatus,
  EventSource,
  PaymentStatus,
  ProviderName,
  RecordedOutcome,
} from '@qless/contract';
import type { ColumnType, Generated, Kysely, Selectable, Transaction } from 'kysely';

/** `time` columns are read as "HH:MM:SS" strings; `date` columns as "yyyy-MM-dd" strings. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

interface OrganizationsTable {
  id: Generated<string>;
  slug: string | null;
  name: string;
  category: Generated<string>;
  city: Generated<string>;
  location: Generated<string>;
  email: string;
  image_url: string | null;
  time_zone: string;
  start_time: string;
  end_time: string;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface ServicesTable {
  id: Generated<string>;
  organization_id: string;
  slug: string | null;
  name: string;
  description: Generated<string>;
  duration_minutes: number;
  capacity: Generated<number>;
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
  confirmed_at: Date | null;
  /** Who placed the hold (null: before migration 004, or not over HTTP). */
  client_address: Generated<string | null>;
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
  received_at: Timestamp;
}

interface ContactRequestsTable {
  id: Generated<string>;
  user_name: string;
  user_email: string;
  message: string;
  created_at: Timestamp;
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
}

/** Fixed-window counters shared by every process (migration 004). */
export interface RateCountersTable {
  key: string;
  window_start: Date;
  count: number;
}

/** Repositories take either the database or a transaction, so work composes into one transaction. */
export type Db = Kysely<DB> | Transaction<DB>;

export type OrganizationRow = Selectable<OrganizationsTable>;
export type ServiceRow = Selectable<ServicesTable>;
export type SlotRow = Selectable<SlotsTable>;
export type PaymentRow = Selectable<PaymentsTable>;
