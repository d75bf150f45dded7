import { type Kysely, sql } from 'kysely';

/**
 * What messages cost an organization (issue 35, item 6; decision 143): each customer message
 * in the outbox names its organization (`outbox.organization_id`, filled here for the messages
 * of bookings and visits already queued), so Insight counts them by channel and cost; and an
 * organization may set a monthly SMS budget (`organizations.sms_budget_monthly_xaf`, null: none)
 * past which its customers get only the free channels.
 */
const statements = [
  `alter table outbox add column organization_id uuid references organizations(id)`,
  `update outbox o set organization_id = b.organization_id
     from bookings b where o.booking_id = b.id and o.organization_id is null`,
  `update outbox o set organization_id = v.organization_id
     from visits v
     where o.organization_id is null and o.dedupe_key like 'visit:%'
       and v.id::text = split_part(o.dedupe_key, ':', 2)`,
  `create index outbox_organization_sent_ix on outbox (organization_id, sent_at)
     where status = 'sent' and organization_id is not null`,
  `alter table organizations add column sms_budget_monthly_xaf integer
     check (sms_budget_monthly_xaf >= 0 and sms_budget_monthly_xaf <= 100000000)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
