import { type Kysely, sql } from 'kysely';

/**
 * Joining from a basic phone (decision 136):
 * - organizations.sms_keyword: the word a visitor texts to join this branch's line ("AKWA"),
 *   followed by the day's code the hall shows; unique, so a word names one branch.
 * - visits.source gains 'sms'.
 * - sms_inbound: every text received, once per provider message id (a gateway that posts the
 *   same message twice gets one answer), with what came of it; neither the number nor the text
 *   is kept (the visit it made holds the phone, and goes with the retention sweep).
 */
const statements = [
  `alter table organizations add column sms_keyword text
     constraint organizations_sms_keyword_ck check (sms_keyword ~ '^[A-Z][A-Z0-9]{2,11}$')`,
  `create unique index organizations_sms_keyword_uq on organizations (sms_keyword)
     where sms_keyword is not null`,
  `alter table visits drop constraint visits_source_ck`,
  `alter table visits add constraint visits_source_ck
     check (source in ('booking', 'staff', 'self', 'kiosk', 'sms'))`,
  `create table sms_inbound (
     id uuid primary key default gen_random_uuid(),
     provider text not null,
     provider_message_id text not null,
     received_at timestamptz not null,
     outcome text not null default 'received',
     visit_id uuid references visits(id),
     constraint sms_inbound_message_uq unique (provider, provider_message_id)
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
