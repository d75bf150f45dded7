import { type Kysely, sql } from 'kysely';

/**
 * The kiosk and its printed ticket (decision 135):
 * - kiosks: a kiosk link per branch, made and revoked in Queue setup like a board link (only
 *   the token's hash kept); `paper` is the slip its printer takes.
 * - visits.source gains 'kiosk': a visitor who took a number at the kiosk.
 * - visits.follow_code: the short code printed on a slip (and said by the counter) that opens
 *   the visitor's turn on any phone later; unique, so a code opens one visit.
 * - visits.request_id: the kiosk's own id of one press, so a press sent again after a network
 *   blink answers the number already given instead of a second one.
 */
const statements = [
  `create table kiosks (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     name text not null constraint kiosks_name_ck check (length(name) between 1 and 60),
     paper text not null default '58mm' constraint kiosks_paper_ck check (paper in ('58mm', '80mm', 'a6')),
     token_hash text not null unique,
     created_by uuid references users(id),
     created_at timestamptz not null default now(),
     revoked_at timestamptz
   )`,
  `create index kiosks_organization_idx on kiosks (organization_id, created_at)`,
  `alter table visits drop constraint visits_source_ck`,
  `alter table visits add constraint visits_source_ck
     check (source in ('booking', 'staff', 'self', 'kiosk'))`,
  `alter table visits add column follow_code text`,
  `create unique index visits_follow_code_uq on visits (follow_code) where follow_code is not null`,
  `alter table visits add column request_id text`,
  `create unique index visits_request_uq on visits (organization_id, request_id)
     where request_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
