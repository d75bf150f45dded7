import { type Kysely, sql } from 'kysely';

/**
 * One outbox for every outgoing message (messages): the account mail of 005 and
 * the customers' booking messages, by e-mail or SMS. A booking message is queued with its
 * event and rendered when it is sent (from the booking as it then stands), so its text
 * columns stay empty until then. `dedupe_key` is unique: a message queued twice for one
 * event (two processes, a retried transaction) is one row. `status` says where a row is:
 * pending (due at next_attempt_at), sent, failed (given up; last_error says why) or
 * skipped (no longer true when it was due, e.g. a reminder of a cancelled booking).
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `alter table mail_outbox rename to outbox`,
  `alter index mail_outbox_unsent_idx rename to outbox_due_old_idx`,
  `alter table outbox add column channel text not null default 'email'
     constraint outbox_channel_ck check (channel in ('email', 'sms'))`,
  `alter table outbox add column status text not null default 'pending'
     constraint outbox_status_ck check (status in ('pending', 'sent', 'failed', 'skipped'))`,
  `update outbox set status = case
     when sent_at is not null then 'sent'
     when next_attempt_at is null then 'failed'
     else 'pending' end`,
  `alter table outbox add column booking_id uuid references bookings(id)`,
  `alter table outbox add column occurrence text check (length(occurrence) <= 80)`,
  `alter table outbox add column locale text constraint outbox_locale_ck check (locale in ('en', 'fr'))`,
  `alter table outbox add column dedupe_key text check (length(dedupe_key) <= 200)`,
  `alter table outbox add constraint outbox_dedupe_key_uq unique (dedupe_key)`,
  `alter table outbox add column provider text check (length(provider) <= 40)`,
  `alter table outbox add column provider_message_id text check (length(provider_message_id) <= 200)`,
  `alter table outbox alter column subject drop not null`,
  `alter table outbox alter column text_body drop not null`,
  // Rows that are not booking messages carry their text from the start.
  `alter table outbox add constraint outbox_text_ck
     check (booking_id is not null or (subject is not null and text_body is not null))`,
  `drop index outbox_due_old_idx`,
  // By channel: a process without SMTP passes over waiting e-mail at no cost.
  `create index outbox_due_idx on outbox (channel, next_attempt_at) where status = 'pending'`,
  `create index outbox_booking_idx on outbox (booking_id) where booking_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
