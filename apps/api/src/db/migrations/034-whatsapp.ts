import { type Kysely, sql } from 'kysely';

/**
 * WhatsApp (issue 35, item 3; decision 144): the outbox's `whatsapp` channel (utility templates
 * through the WhatsApp Business Cloud API; `to_address` is the E.164 number), and the customer's
 * opt-in, recorded when they give their number for it: on a walk-in's visit, or on a booking
 * (copied to its visit at check-in).
 */
const statements = [
  `alter table outbox drop constraint outbox_channel_ck`,
  `alter table outbox add constraint outbox_channel_ck
     check (channel in ('email', 'sms', 'push', 'whatsapp'))`,
  `alter table visits add column whatsapp_opt_in_at timestamptz`,
  `alter table bookings add column whatsapp_opt_in_at timestamptz`,
  `create index outbox_provider_message_ix on outbox (provider_message_id)
     where provider_message_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
