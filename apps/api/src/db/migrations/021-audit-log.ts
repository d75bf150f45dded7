import { type Kysely, sql } from 'kysely';

/**
 * The audit log (decision 032): who among staff, admins and operators did
 * what, when and from where. Rows are written after the response by one hook (see
 * modules/audit) and are never changed through the app:
 *
 * - no foreign keys: an entry outlives the account and the branch it names (a deleted
 *   account's actions stay readable by its id and e-mail as they were then), and a cascade
 *   would be an UPDATE or DELETE the trigger below refuses;
 * - a trigger refuses every UPDATE and DELETE, and TRUNCATE, except the retention sweep's
 *   delete: in a transaction that set `qless.audit_prune_before` (SET LOCAL) it may delete
 *   rows older than that instant, and only those. A database superuser can still drop the
 *   trigger: "never editable through the app", not against the DBA.
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `create table audit_log (
     id uuid primary key default gen_random_uuid(),
     at timestamptz not null,
     actor_user_id uuid,
     actor_role text,
     actor_email text,
     organization_id uuid,
     action text not null check (length(action) between 1 and 120),
     target jsonb not null default '{}'::jsonb,
     outcome smallint not null,
     client_address text,
     user_agent text check (user_agent is null or length(user_agent) <= 200),
     request_id text
   )`,
  // Newest first, overall and per branch and per account (the console's and the area's pages).
  'create index audit_log_at_idx on audit_log (at desc, id desc)',
  'create index audit_log_organization_at_idx on audit_log (organization_id, at desc, id desc)',
  'create index audit_log_actor_at_idx on audit_log (actor_user_id, at desc, id desc)',
  `create function audit_log_append_only() returns trigger language plpgsql as $$
    declare
      bound text := current_setting('qless.audit_prune_before', true);
    begin
      if tg_op = 'DELETE' and bound is not null and bound <> '' then
        if old.at < bound::timestamptz then
          return old;
        end if;
      end if;
      raise exception 'audit_log is append-only (% refused)', tg_op
        using errcode = 'insufficient_privilege';
    end
  $$`,
  `create trigger audit_log_append_only before update or delete on audit_log
     for each row execute function audit_log_append_only()`,
  `create trigger audit_log_no_truncate before truncate on audit_log
     for each statement execute function audit_log_append_only()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
