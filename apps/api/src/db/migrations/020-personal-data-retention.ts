import { type Kysely, sql } from 'kysely';

/**
 * Personal data kept only as long as needed (decision 031). Each table
 * that holds a customer's name, phone, e-mail, free text or address gets
 * `personal_data_erased_at`: set once, by the retention sweep or an operator's erasure, when
 * those columns were replaced. Rows are never deleted (counts and states stay for Insight
 * and accounting). Columns that are NOT NULL take a fixed placeholder ('' or '—'); the checks
 * that a placeholder would break accept it only on an erased row. Partial indexes make the
 * sweep's "anything due?" question cheap: they hold only rows not yet erased.
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const TABLES = [
  'bookings',
  'payments',
  'payment_events',
  'visits',
  'waitlist_entries',
  'outbox',
  'contact_requests',
] as const;

const statements = [
  ...TABLES.map((t) => `alter table ${t} add column personal_data_erased_at timestamptz`),
  // An erased booking's and waitlist entry's phone is '' (the number is gone, the row stays).
  `alter table bookings drop constraint bookings_phone_number_check`,
  `alter table bookings add constraint bookings_phone_number_check check (
     phone_number ~ '^\\+2376[0-9]{8}$' or (phone_number = '' and personal_data_erased_at is not null))`,
  `alter table waitlist_entries drop constraint waitlist_entries_phone_ck`,
  `alter table waitlist_entries add constraint waitlist_entries_phone_ck check (
     phone ~ '^\\+2376[0-9]{8}$' or (phone = '' and personal_data_erased_at is not null))`,
  // A message's text goes with its recipient: an erased row keeps channel, kind and state.
  `alter table outbox drop constraint outbox_text_ck`,
  `alter table outbox add constraint outbox_text_ck check (
     booking_id is not null or personal_data_erased_at is not null
     or (subject is not null and text_body is not null))`,
  // What the sweep looks for: finished rows not yet erased, by the time they finished.
  `create index bookings_personal_data_due_ix on bookings (booking_date)
     where personal_data_erased_at is null`,
  `create index bookings_personal_data_ended_ix on bookings (updated_at)
     where personal_data_erased_at is null and status in ('cancelled', 'expired')`,
  // Events of a payment go with its booking; these are the events about no payment of ours.
  `create index payment_events_personal_data_due_ix on payment_events (received_at)
     where personal_data_erased_at is null and payment_id is null`,
  `create index visits_personal_data_due_ix on visits (ended_at)
     where personal_data_erased_at is null`,
  `create index waitlist_entries_personal_data_due_ix on waitlist_entries (updated_at)
     where personal_data_erased_at is null and state not in ('waiting', 'offered')`,
  // A booking's messages go with the booking; these are the others (account mail, queue,
  // feedback and waitlist SMS).
  `create index outbox_personal_data_due_ix on outbox (created_at)
     where personal_data_erased_at is null and status <> 'pending' and booking_id is null`,
  `create index contact_requests_personal_data_due_ix on contact_requests (created_at)
     where personal_data_erased_at is null`,
  // The operator's export and erasure find one person's rows by phone or e-mail.
  `create index bookings_phone_ix on bookings (phone_number)`,
  `create index bookings_email_ix on bookings (lower(cus_email)) where cus_email <> ''`,
  `create index payments_phone_ix on payments (phone_number)`,
  `create index waitlist_entries_phone_all_ix on waitlist_entries (phone)`,
  `create index outbox_to_address_ix on outbox (lower(to_address))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
