import { type Kysely, sql } from 'kysely';

/**
 * A word after the visit: a customer's rating (1-5) and optional comment
 * of one visit that ended done. Once per visit: the unique visit_id decides (two answers sent
 * at once: one row, the other 409). Organization, service and the visit's day are copied from
 * the visit so Insight reads one table by (organization, day). The SMS with the link is an
 * outbox row (kind `visit_feedback`, dedupe key `visit:{id}:feedback`): nothing else records it.
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `create table visit_feedback (
     id uuid primary key default gen_random_uuid(),
     visit_id uuid not null references visits(id),
     organization_id uuid not null references organizations(id),
     service_id uuid not null references services(id),
     visit_date date not null,
     rating smallint not null constraint visit_feedback_rating_ck check (rating between 1 and 5),
     comment text constraint visit_feedback_comment_ck
       check (comment is null or length(comment) between 1 and 500),
     locale text not null constraint visit_feedback_locale_ck check (locale in ('en', 'fr')),
     created_at timestamptz not null default now(),
     constraint visit_feedback_visit_uq unique (visit_id)
   )`,
  // Insight's summary (feedbackSummary): the ratings of a branch's days read from the index
  // alone, and its latest comments in the order shown, found without sorting a year.
  `create index visit_feedback_organization_day_ix on visit_feedback (organization_id, visit_date)
     include (rating, service_id)`,
  `create index visit_feedback_comments_ix on visit_feedback
     (organization_id, visit_date desc, created_at desc, id desc) where comment is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
