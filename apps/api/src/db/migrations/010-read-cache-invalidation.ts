import { type Kysely, sql } from 'kysely';

/**
 * Read-cache invalidation, driven by the database so that no write path can
 * forget it: every change to a table that feeds a public catalogue answer sends
 * `pg_notify('qless_cache', topic)` from a trigger, delivered at commit to every process
 * that LISTENs (PostgreSQL dedupes equal payloads within a transaction, so a bulk update
 * sends each topic once). Topics (see apps/api/src/modules/catalog/read-cache.ts):
 *   catalog          the organization list and its searches
 *   org:<id>         everything about one organization (profile, hours, closures, services)
 *   slots:<service>  a service's live slots
 *   taken:<service>  a service's taken seats (bookings)
 *   *                everything (TRUNCATE)
 * A bookings update that leaves what the public reads unchanged (reminder flags,
 * check-in time) sends nothing: the reminder and outbox sweeps touch bookings often.
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `create function qless_cache_notify() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'organizations' then
        perform pg_notify('qless_cache', 'catalog');
        if tg_op <> 'INSERT' then perform pg_notify('qless_cache', 'org:' || old.id); end if;
        if tg_op <> 'DELETE' then perform pg_notify('qless_cache', 'org:' || new.id); end if;
      elsif tg_table_name in ('services', 'organization_closures') then
        if tg_op <> 'INSERT' then perform pg_notify('qless_cache', 'org:' || old.organization_id); end if;
        if tg_op <> 'DELETE' then perform pg_notify('qless_cache', 'org:' || new.organization_id); end if;
      elsif tg_table_name = 'slots' then
        if tg_op <> 'INSERT' then perform pg_notify('qless_cache', 'slots:' || old.service_id); end if;
        if tg_op <> 'DELETE' then perform pg_notify('qless_cache', 'slots:' || new.service_id); end if;
      elsif tg_table_name = 'bookings' then
        if tg_op = 'UPDATE'
          and (old.service_id, old.slot_id, old.booking_date, old.status, old.hold_expires_at)
            is not distinct from (new.service_id, new.slot_id, new.booking_date, new.status, new.hold_expires_at)
        then
          return null;
        end if;
        if tg_op <> 'INSERT' then perform pg_notify('qless_cache', 'taken:' || old.service_id); end if;
        if tg_op <> 'DELETE' then perform pg_notify('qless_cache', 'taken:' || new.service_id); end if;
      end if;
      return null;
    end
  $$`,
  `create function qless_cache_notify_all() returns trigger language plpgsql as $$
    begin
      perform pg_notify('qless_cache', '*');
      return null;
    end
  $$`,
  ...['organizations', 'services', 'organization_closures', 'slots', 'bookings'].flatMap(
    (table) => [
      `create trigger ${table}_cache_notify after insert or update or delete on ${table}
        for each row execute function qless_cache_notify()`,
      `create trigger ${table}_cache_notify_truncate after truncate on ${table}
        for each statement execute function qless_cache_notify_all()`,
    ],
  ),
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
